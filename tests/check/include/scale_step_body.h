// The body of a kernel's loop, included inside a function (`#include` in the loop), as
// HeCBench's s3d and lid-driven-cavity write their kernels: it doubles element i of `a`.
const double old = a[i];
a[i] = 2.0 * old;
