/* benchcuda.h: what the bus carries for CUDA on the same GPU — the
 * reference the duplex floor is held against. The CUDA driver library
 * ships with NVIDIA's driver (its Vulkan driver included), so the
 * benchmark loads it at run time wherever it is and needs no CUDA
 * toolkit to build. */
#ifndef __VKT_BENCH_CUDA_H__
#define __VKT_BENCH_CUDA_H__

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  BENCH_CUDA_PINNED,            /* cuMemHostAlloc, as cudaMallocHost */
  BENCH_CUDA_WRITE_COMBINED,    /* the upload's source write-combined */
  BENCH_CUDA_REGISTERED,        /* plain malloc'd memory, registered */
  BENCH_CUDA_N_HOSTS
} BenchCudaHost;

typedef enum
{
  BENCH_CUDA_UP,                /* host to device */
  BENCH_CUDA_DOWN,              /* device to host */
  BENCH_CUDA_BOTH,              /* both at once, a stream each */
  BENCH_CUDA_BOTH_SPLIT,        /* both at once, each over two streams */
} BenchCudaMode;

typedef struct _BenchCuda BenchCuda;

/* Frames of `bytes` each way on the CUDA device whose UUID is `uuid`
 * (VkPhysicalDeviceIDProperties'). NULL with `error` set where there is no
 * libcuda or no such device. */
BenchCuda *bench_cuda_new (const guint8 uuid[16], gsize bytes,
    BenchCudaHost host, GError ** error);
/* Wall ns a frame of `frames` copies of the frame in `mode` queued back
 * to back, from the first launch to the end of the last stream: the
 * steady state of a stream of frames (one copy alone also pays the GPU's
 * switch from another context, such as the benchmark's Vulkan device). */
gboolean bench_cuda_time (BenchCuda * cuda, BenchCudaMode mode,
    guint frames, gdouble * ns, GError ** error);
void bench_cuda_free (BenchCuda * cuda);
const gchar *bench_cuda_host_name (BenchCudaHost host);

G_END_DECLS

#endif
