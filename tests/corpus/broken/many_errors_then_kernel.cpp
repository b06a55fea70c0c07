// More than twenty compile errors (the kind a wrong include directory gives) before a function
// template holding a kernel. clang stops after twenty errors by default, and the template's
// instantiation and everything after it would be missing; omplens parses with no error limit,
// so the kernel below is lowered and `main`'s call of `scale<3>` reaches it.
#define E(i) int bad##i = undeclared_##i;
E(0) E(1) E(2) E(3) E(4) E(5) E(6) E(7) E(8) E(9) E(10)
E(11) E(12) E(13) E(14) E(15) E(16) E(17) E(18) E(19) E(20) E(21)

template <int R>
void scale(const float *in, float *out, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] = in[i] * R;
}

int main() {
  int n = 64;
  float in[64], out[64];
  for (int i = 0; i < n; i++)
    in[i] = i;
#pragma omp target data map(to: in[0:n]) map(alloc: out[0:n])
  {
    scale<3>(in, out, n);
#pragma omp target update from(out[0:n])
  }
  return (int)out[1];
}
