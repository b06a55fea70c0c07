// Exercises C++ code called only from device code: begin/end declare target around a struct with member functions, a function template and constexpr helpers.
#include <cstdio>

#pragma omp begin declare target
struct Vec3 {
  double x, y, z;
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  Vec3 scaled(double f) const { return Vec3{x * f, y * f, z * f}; }
  Vec3 operator+(const Vec3 &o) const { return Vec3{x + o.x, y + o.y, z + o.z}; }
};

constexpr double kDamping = 0.5;

template <typename T>
T clamp_abs(T v, T lim) {
  return v > lim ? lim : (v < -lim ? -lim : v);
}

static Vec3 reflect(const Vec3 &v, const Vec3 &n) {
  return v + n.scaled(-2.0 * v.dot(n));
}
#pragma omp end declare target

int main() {
  const int n = 64;
  Vec3 vel[n];
  double speed2[n];
  for (int i = 0; i < n; i++)
    vel[i] = Vec3{double(i % 5) - 2.0, 1.0, double(i % 3)};
  Vec3 normal{0.0, 1.0, 0.0};

#pragma omp target teams distribute parallel for map(tofrom: vel) map(from: speed2) map(to: normal)
  for (int i = 0; i < n; i++) {
    Vec3 r = reflect(vel[i], normal).scaled(kDamping);
    r.x = clamp_abs(r.x, 0.75);
    vel[i] = r;
    speed2[i] = r.dot(r);
  }

  double s = 0.0, sy = 0.0;
  for (int i = 0; i < n; i++) {
    s += speed2[i];
    sy += vel[i].y;
  }
  std::printf("sum speed^2=%.4f sum vy=%.4f vel[3]=(%.2f,%.2f,%.2f)\n", s, sy, vel[3].x, vel[3].y, vel[3].z);
  return 0;
}
