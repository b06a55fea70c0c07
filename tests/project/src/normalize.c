/* Host helpers of src/main.c, in their own translation unit. */
void normalize(double *v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += v[i];
  for (int i = 0; i < n; i++)
    v[i] /= s;
}

double checksum(const double *v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += v[i] * (i % 7);
  return s;
}
