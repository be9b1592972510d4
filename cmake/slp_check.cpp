// Configure-time check (CMakeLists.txt): GCC 12.2 with AVX-512 enabled
// (-march=native on an AVX-512 machine) compiles a store of {3, 3, 3, 3, 0, 0, 0, 0}
// into eight 3s (one vpbroadcastd of the first element) through SLP
// vectorisation. Exits 1 when the compiler at hand does that.
#include <cstring>

__attribute__((noinline)) void fill_f32(float* out) {
  float a[8] = {3, 3, 3, 3, 0, 0, 0, 0};
  std::memcpy(out, a, sizeof a);
}

__attribute__((noinline)) void fill_i32(int* out) {
  int a[8] = {7, 7, 7, 7, 0, 0, 0, 0};
  std::memcpy(out, a, sizeof a);
}

int main() {
  float f[8];
  int i[8];
  fill_f32(f);
  fill_i32(i);
  for (int k = 0; k < 8; ++k)
    if (f[k] != (k < 4 ? 3.0f : 0.0f) || i[k] != (k < 4 ? 7 : 0)) return 1;
  return 0;
}
