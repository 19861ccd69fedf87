// swizzlekit CTA orders as CUDA device functions: launch index -> output tile (m, n).
//
// Each equals swizzlekit.cta.order(name, tiles_m, tiles_n, ...) tile by tile (tested: compiled
// as host C++ in CI, and on the GPU). Call with the linear launch index of a 1-D grid, e.g.
//     sk_tile t = sk_grouped(blockIdx.x, tiles_m, tiles_n, 8);
// sk_cutlass and sk_zlayer take the index in their own launch grids (sk_cutlass_ctas,
// sk_zlayer_ctas) and return n >= tiles_n for CTAs that must exit at once.
// sk_morton and sk_hilbert need a square grid of 2^log2 x 2^log2 tiles.
#pragma once

struct sk_tile {
  int m, n;
};

__host__ __device__ __forceinline__ sk_tile sk_row(int pid, int tiles_m, int tiles_n) {
  return {pid / tiles_n, pid % tiles_n};
}

__host__ __device__ __forceinline__ sk_tile sk_col(int pid, int tiles_m, int tiles_n) {
  return {pid % tiles_m, pid / tiles_m};
}

// Triton's tutorial GROUP_SIZE_M: `group` tile-rows, column-major inside the group.
__host__ __device__ __forceinline__ sk_tile sk_grouped(int pid, int tiles_m, int tiles_n,
                                                       int group) {
  int in_group = group * tiles_n;
  int first = (pid / in_group) * group;
  int size = min(tiles_m - first, group);
  return {first + (pid % in_group) % size, (pid % in_group) / size};
}

// The twin along N: `group` tile-columns, row-major inside the group.
__host__ __device__ __forceinline__ sk_tile sk_grouped_n(int pid, int tiles_m, int tiles_n,
                                                         int group) {
  sk_tile t = sk_grouped(pid, tiles_n, tiles_m, group);
  return {t.n, t.m};
}

// The persistent tutorial's _compute_pid (and seed 003): pid_m = first + pid % size.
__host__ __device__ __forceinline__ sk_tile sk_grouped_persistent(int pid, int tiles_m,
                                                                  int tiles_n, int group) {
  int in_group = group * tiles_n;
  int first = (pid / in_group) * group;
  int size = min(tiles_m - first, group);
  return {first + pid % size, (pid % in_group) / size};
}

// Seed 001's strip swizzle (strips `width` tile-columns wide, row-major inside), with the
// seed's division by gridDim.y corrected to the row length.
__host__ __device__ __forceinline__ sk_tile sk_strip(int pid, int tiles_m, int tiles_n,
                                                     int width) {
  int per_strip = width * tiles_m;
  int strips = tiles_n / width;
  int residual = tiles_n % width;
  int strip_id = pid / per_strip;
  int in_strip = pid % per_strip;
  int use = pid < per_strip * strips ? width : max(residual, 1);
  int flat = strip_id * width + (in_strip / use) * tiles_n + in_strip % use;
  return {flat / tiles_n, flat % tiles_n};
}

// The same strips, every other one walked bottom to top.
__host__ __device__ __forceinline__ sk_tile sk_strip_snake(int pid, int tiles_m, int tiles_n,
                                                           int width) {
  int strip_id = pid / (width * tiles_m);
  int in_strip = pid - strip_id * width * tiles_m;
  int use = min(width, tiles_n - strip_id * width);
  int r = in_strip / use;
  int c = in_strip % use;
  return {strip_id % 2 ? tiles_m - 1 - r : r, strip_id * width + c};
}

__host__ __device__ __forceinline__ sk_tile sk_snake(int pid, int tiles_m, int tiles_n) {
  int m = pid / tiles_n, n = pid % tiles_n;
  return {m, m % 2 ? tiles_n - 1 - n : n};
}

// CUTLASS GemmIdentityThreadblockSwizzle<1 << log_tile>, raster along M: a grid of
// (tiles_m << log_tile) x ceil(tiles_n / 2^log_tile) CTAs, x fastest.
__host__ __device__ __forceinline__ int sk_cutlass_ctas(int tiles_m, int tiles_n, int log_tile) {
  int size = 1 << log_tile;
  return (tiles_m << log_tile) * ((tiles_n + size - 1) / size);
}
__host__ __device__ __forceinline__ sk_tile sk_cutlass(int pid, int tiles_m, int tiles_n,
                                                       int log_tile) {
  int gx = tiles_m << log_tile;
  int bx = pid % gx, by = pid / gx;
  return {bx >> log_tile, (by << log_tile) + (bx & ((1 << log_tile) - 1))};
}

// Seed 002's z-layer block swizzle: grid (ceil(tiles_n / layers), tiles_m, layers).
__host__ __device__ __forceinline__ int sk_zlayer_ctas(int tiles_m, int tiles_n, int layers) {
  return ((tiles_n + layers - 1) / layers) * tiles_m * layers;
}
__host__ __device__ __forceinline__ sk_tile sk_zlayer(int pid, int tiles_m, int tiles_n,
                                                      int layers) {
  int gx = (tiles_n + layers - 1) / layers;
  int x = pid % gx, y = (pid / gx) % tiles_m, z = pid / (gx * tiles_m);
  return {y, z * gx + x};
}

// Z-order on a 2^log2 x 2^log2 grid: m takes the odd bits of pid, n the even ones.
__host__ __device__ __forceinline__ sk_tile sk_morton(int pid, int log2) {
  int m = 0, n = 0;
  for (int b = 0; b < log2; ++b) {
    n |= ((pid >> (2 * b)) & 1) << b;
    m |= ((pid >> (2 * b + 1)) & 1) << b;
  }
  return {m, n};
}

// Hilbert curve on a 2^log2 x 2^log2 grid (the inverse of the distance the numpy order sorts
// by): walk the quadrants from the largest down, undoing each rotation.
__host__ __device__ __forceinline__ sk_tile sk_hilbert(int pid, int log2) {
  int x = 0, y = 0, t = pid;
  for (int s = 1; s < (1 << log2); s <<= 1) {
    int rx = 1 & (t / 2);
    int ry = 1 & (t ^ rx);
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      int tmp = x;
      x = y;
      y = tmp;
    }
    x += s * rx;
    y += s * ry;
    t /= 4;
  }
  return {y, x};
}

// An order picked at compile time, for kernels templated on theirs: 0 row, 1 grouped(p),
// 2 strip(p), 3 snake, 4 zlayer(p) (launch sk_zlayer_ctas blocks).
template <int ORDER>
__host__ __device__ __forceinline__ sk_tile sk_select(int pid, int tiles_m, int tiles_n, int p) {
  if (ORDER == 1) return sk_grouped(pid, tiles_m, tiles_n, p);
  if (ORDER == 2) return sk_strip(pid, tiles_m, tiles_n, p);
  if (ORDER == 3) return sk_snake(pid, tiles_m, tiles_n);
  if (ORDER == 4) return sk_zlayer(pid, tiles_m, tiles_n, p);
  return sk_row(pid, tiles_m, tiles_n);
}
