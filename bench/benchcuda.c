/* benchcuda.c: see benchcuda.h. The CUDA driver API through dlopen, the
 * few entry points the copies need declared here by their ABI. Each
 * direction is one cuMemcpy*Async of the frame (or of each half, on two
 * streams), the two directions on streams of their own: what CUDA
 * applications do, on its copy engines. */
#include "benchcuda.h"

#include <dlfcn.h>
#include <gst/gst.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_STREAM_NON_BLOCKING 0x1

typedef struct
{
  void *lib;
  CUresult (*init) (unsigned int);
  CUresult (*device_get_count) (int *);
  CUresult (*device_get) (CUdevice *, int);
  CUresult (*device_get_uuid) (guint8 *, CUdevice);
  CUresult (*ctx_retain) (CUcontext *, CUdevice);
  CUresult (*ctx_release) (CUdevice);
  CUresult (*ctx_set_current) (CUcontext);
  CUresult (*mem_alloc) (CUdeviceptr *, size_t);
  CUresult (*mem_free) (CUdeviceptr);
  CUresult (*host_alloc) (void **, size_t, unsigned int);
  CUresult (*host_free) (void *);
  CUresult (*host_register) (void *, size_t, unsigned int);
  CUresult (*host_unregister) (void *);
  CUresult (*htod) (CUdeviceptr, const void *, size_t, CUstream);
  CUresult (*dtoh) (void *, CUdeviceptr, size_t, CUstream);
  CUresult (*stream_create) (CUstream *, unsigned int);
  CUresult (*stream_destroy) (CUstream);
  CUresult (*stream_sync) (CUstream);
  CUresult (*error_string) (CUresult, const char **);
} Cuda;

static gboolean
cuda_load (Cuda * cu, GError ** error)
{
  static const struct
  {
    const gchar *name;
    gsize offset;
  } syms[] = {
#define SYM(field, name) { name, G_STRUCT_OFFSET (Cuda, field) }
    SYM (init, "cuInit"),
    SYM (device_get_count, "cuDeviceGetCount"),
    SYM (device_get, "cuDeviceGet"),
    SYM (device_get_uuid, "cuDeviceGetUuid"),
    SYM (ctx_retain, "cuDevicePrimaryCtxRetain"),
    SYM (ctx_release, "cuDevicePrimaryCtxRelease_v2"),
    SYM (ctx_set_current, "cuCtxSetCurrent"),
    SYM (mem_alloc, "cuMemAlloc_v2"),
    SYM (mem_free, "cuMemFree_v2"),
    SYM (host_alloc, "cuMemHostAlloc"),
    SYM (host_free, "cuMemFreeHost"),
    SYM (host_register, "cuMemHostRegister_v2"),
    SYM (host_unregister, "cuMemHostUnregister"),
    SYM (htod, "cuMemcpyHtoDAsync_v2"),
    SYM (dtoh, "cuMemcpyDtoHAsync_v2"),
    SYM (stream_create, "cuStreamCreate"),
    SYM (stream_destroy, "cuStreamDestroy_v2"),
    SYM (stream_sync, "cuStreamSynchronize"),
    SYM (error_string, "cuGetErrorString"),
#undef SYM
  };
  guint i;

  memset (cu, 0, sizeof (*cu));
  if (!(cu->lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "no CUDA driver library (libcuda.so.1)");
    return FALSE;
  }
  for (i = 0; i < G_N_ELEMENTS (syms); i++) {
    gpointer fn = dlsym (cu->lib, syms[i].name);
    if (!fn) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "libcuda.so.1 lacks %s", syms[i].name);
      return FALSE;
    }
    G_STRUCT_MEMBER (gpointer, cu, syms[i].offset) = fn;
  }
  return TRUE;
}

static gboolean
cuda_check (Cuda * cu, CUresult r, const gchar * what, GError ** error)
{
  const char *s = NULL;

  if (r == 0)
    return TRUE;
  if (cu->error_string)
    cu->error_string (r, &s);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
      "%s: CUDA error %d%s%s", what, r, s ? ", " : "", s ? s : "");
  return FALSE;
}

const gchar *
bench_cuda_host_name (BenchCudaHost host)
{
  switch (host) {
    case BENCH_CUDA_PINNED:
      return "pinned (cuMemHostAlloc)";
    case BENCH_CUDA_WRITE_COMBINED:
      return "pinned, the upload's source write-combined";
    case BENCH_CUDA_REGISTERED:
      return "malloc'd and registered (cuMemHostRegister)";
    default:
      return "?";
  }
}

struct _BenchCuda
{
  Cuda cu;
  CUdevice dev;
  CUcontext ctx;
  gsize bytes;
  guint8 *host_in, *host_out;
  gpointer malloced[2];
  CUdeviceptr dev_in, dev_out;
  CUstream streams[4];          /* two for each direction */
};

static gboolean
cuda_host_frame (Cuda * cu, BenchCudaHost host, gsize bytes, gboolean input,
    guint8 ** data, gpointer * malloced, GError ** error)
{
  if (host == BENCH_CUDA_REGISTERED) {
    gsize page = 4096;
    *malloced = g_malloc (bytes + page);
    *data = (guint8 *) GST_ROUND_UP_N ((guintptr) * malloced, page);
    memset (*data, 0x5a, bytes);
    return cuda_check (cu, cu->host_register (*data, bytes, 0),
        "cuMemHostRegister", error);
  }
  if (!cuda_check (cu, cu->host_alloc ((void **) data, bytes,
              host == BENCH_CUDA_WRITE_COMBINED && input ?
              CU_MEMHOSTALLOC_WRITECOMBINED : 0), "cuMemHostAlloc", error))
    return FALSE;
  memset (*data, 0x5a, bytes);
  return TRUE;
}

static void
cuda_host_frame_free (Cuda * cu, guint8 * data, gpointer malloced)
{
  if (!data)
    return;
  if (malloced) {
    cu->host_unregister (data);
    g_free (malloced);
  } else {
    cu->host_free (data);
  }
}

BenchCuda *
bench_cuda_new (const guint8 uuid[16], gsize bytes, BenchCudaHost host,
    GError ** error)
{
  BenchCuda *cuda = g_new0 (BenchCuda, 1);
  Cuda *cu = &cuda->cu;
  int n = 0, i;
  guint s;

  cuda->dev = -1;
  cuda->bytes = bytes;
  if (!cuda_load (cu, error)
      || !cuda_check (cu, cu->init (0), "cuInit", error)
      || !cuda_check (cu, cu->device_get_count (&n), "cuDeviceGetCount",
          error))
    goto fail;
  for (i = 0; i < n && cuda->dev < 0; i++) {
    CUdevice d;
    guint8 id[16];
    if (cu->device_get (&d, i) == 0 && cu->device_get_uuid (id, d) == 0
        && memcmp (id, uuid, 16) == 0)
      cuda->dev = d;
  }
  if (cuda->dev < 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "no CUDA device is the Vulkan device (of %d)", n);
    goto fail;
  }
  if (!cuda_check (cu, cu->ctx_retain (&cuda->ctx, cuda->dev),
          "cuDevicePrimaryCtxRetain", error))
    goto fail;
  if (!cuda_check (cu, cu->ctx_set_current (cuda->ctx), "cuCtxSetCurrent",
          error)
      || !cuda_host_frame (cu, host, bytes, TRUE, &cuda->host_in,
          &cuda->malloced[0], error)
      || !cuda_host_frame (cu, host, bytes, FALSE, &cuda->host_out,
          &cuda->malloced[1], error)
      || !cuda_check (cu, cu->mem_alloc (&cuda->dev_in, bytes), "cuMemAlloc",
          error)
      || !cuda_check (cu, cu->mem_alloc (&cuda->dev_out, bytes),
          "cuMemAlloc", error))
    goto fail;
  for (s = 0; s < G_N_ELEMENTS (cuda->streams); s++)
    if (!cuda_check (cu, cu->stream_create (&cuda->streams[s],
                CU_STREAM_NON_BLOCKING), "cuStreamCreate", error))
      goto fail;
  return cuda;

fail:
  bench_cuda_free (cuda);
  return NULL;
}

gboolean
bench_cuda_time (BenchCuda * cuda, BenchCudaMode mode, guint frames,
    gdouble * ns, GError ** error)
{
  Cuda *cu = &cuda->cu;
  gboolean up = mode != BENCH_CUDA_DOWN, down = mode != BENCH_CUDA_UP;
  guint split = mode == BENCH_CUDA_BOTH_SPLIT ? 2 : 1, s, f;
  gsize part = GST_ROUND_UP_N (cuda->bytes / split, 4096);
  gint64 t0;

  /* a context is current per thread: make it so on the calling one */
  if (!cuda_check (cu, cu->ctx_set_current (cuda->ctx), "cuCtxSetCurrent",
          error))
    return FALSE;
  t0 = g_get_monotonic_time ();
  for (f = 0; f < frames; f++)
    for (s = 0; s < split; s++) {
      gsize off = s * part, n = MIN (part, cuda->bytes - off);
      if (up && !cuda_check (cu, cu->htod (cuda->dev_in + off,
                  cuda->host_in + off, n, cuda->streams[s]),
              "cuMemcpyHtoDAsync", error))
        return FALSE;
      if (down && !cuda_check (cu, cu->dtoh (cuda->host_out + off,
                  cuda->dev_out + off, n, cuda->streams[2 + s]),
              "cuMemcpyDtoHAsync", error))
        return FALSE;
    }
  for (s = 0; s < G_N_ELEMENTS (cuda->streams); s++)
    if (!cuda_check (cu, cu->stream_sync (cuda->streams[s]),
            "cuStreamSynchronize", error))
      return FALSE;
  *ns = (g_get_monotonic_time () - t0) * 1e3 / MAX (frames, 1);
  return TRUE;
}

void
bench_cuda_free (BenchCuda * cuda)
{
  Cuda *cu;
  guint s;

  if (!cuda)
    return;
  cu = &cuda->cu;
  if (cuda->ctx) {
    cu->ctx_set_current (cuda->ctx);
    for (s = 0; s < G_N_ELEMENTS (cuda->streams); s++)
      if (cuda->streams[s])
        cu->stream_destroy (cuda->streams[s]);
    if (cuda->dev_in)
      cu->mem_free (cuda->dev_in);
    if (cuda->dev_out)
      cu->mem_free (cuda->dev_out);
    cuda_host_frame_free (cu, cuda->host_in, cuda->malloced[0]);
    cuda_host_frame_free (cu, cuda->host_out, cuda->malloced[1]);
    cu->ctx_release (cuda->dev);
  }
  if (cu->lib)
    dlclose (cu->lib);
  g_free (cuda);
}
