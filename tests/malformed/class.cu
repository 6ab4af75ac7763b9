class A { int x; };
// expect: 1:1: error: unsupported: class
