struct S { int a : 3; };
// expect: 1:16: error: unsupported: bit-fields
