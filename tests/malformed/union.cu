union U { int a; float b; };
// expect: 1:1: error: unsupported: union
