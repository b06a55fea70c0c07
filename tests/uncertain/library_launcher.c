/* A library file: `scale_into` launches a kernel on its pointer parameters and copies the
 * results back with `target update from` before reading them on the host. No function here
 * calls it: its caller (another file) decides what is mapped, and the kernel works through
 * the pointers only if the caller mapped them. omplens takes them as mapped there, so the
 * update brings the kernel's results back and the host's read is valid. (Before, the data
 * was taken as not mapped, the update as doing nothing, and the read drew OMP101.) */
void scale_into(const int *in, int *out, int *host_copy, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    out[i] = 2 * in[i];
#pragma omp target update from(out[0:n])
  for (int i = 0; i < n; i++)
    host_copy[i] = out[i];
}
