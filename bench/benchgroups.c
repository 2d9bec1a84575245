/* benchgroups.c: vktile-bench's subjects and groups: what one group
 * times together, its frames and floor buffers, one step of a subject, the
 * interleaved rounds of a group, and the plan of a run (the gpu, sysmem and
 * chain groups of each format and size). */
#include <math.h>
#include <string.h>

#include "vktile-bench.h"

/* ---- subjects and groups ---- */

const gchar *
bench_group_kind_name (GroupKind k)
{
  return k == GROUP_GPU ? "gpu" : k == GROUP_SYSMEM ? "sysmem" : "chain";
}

gboolean
bench_subject_is_floor (const Subject * s)
{
  return s->kind != SUBJECT_ELEMENT && s->kind != SUBJECT_STREAM;
}

static Subject *
subject_new (SubjectKind kind, const gchar * element, const gchar * config,
    const gchar * middle, guint rounds)
{
  Subject *s = g_new0 (Subject, 1);

  s->kind = kind;
  s->element = g_strdup (element);
  s->config = g_strdup (config);
  s->middle = g_strdup (middle);
  s->ns = g_new0 (gdouble, MAX (rounds, 1));
  s->gpu_ns = g_new0 (gdouble, MAX (rounds, 1));
  s->busy_ns = g_new0 (gdouble, MAX (rounds, 1));
  return s;
}

static void
subject_free (Subject * s)
{
  if (!s)
    return;
  bench_pipe_free (s->pipe);
  g_free (s->element);
  g_free (s->config);
  g_free (s->middle);
  g_free (s->ns);
  g_free (s->gpu_ns);
  g_free (s->busy_ns);
  g_free (s->message);
  g_free (s->in_memory);
  g_free (s->out_memory);
  g_free (s);
}

static void
subject_fail (Subject * s, const gchar * what, GError * error)
{
  s->failed = TRUE;
  if (!s->message)
    s->message = g_strdup_printf ("%s%s%s", what, error ? ": " : "",
        error ? error->message : "");
  g_printerr ("  %s %s: %s\n", s->element, s->config, s->message);
  g_clear_pointer (&s->pipe, bench_pipe_free);
}

gchar *
bench_subject_label (const Subject * s)
{
  if (s->kind == SUBJECT_ELEMENT || s->kind == SUBJECT_STREAM)
    return s->config[0] ? g_strdup_printf ("%s %s", s->element, s->config) :
        g_strdup (s->element);
  return g_strdup (s->config);
}

Group *
bench_group_new (GroupKind kind, GstVideoFormat format, gint w, gint h)
{
  Group *g = g_new0 (Group, 1);
  GstVideoInfo info;

  g->kind = kind;
  g->format = format;
  g->width = w;
  g->height = h;
  gst_video_info_set_format (&info, format, w, h);
  g->bytes = GST_VIDEO_INFO_SIZE (&info);
  g->subjects = g_ptr_array_new_with_free_func ((GDestroyNotify) subject_free);
  if (kind == GROUP_GPU) {
    g->rounds = opt_rounds;
    g->warmup = opt_warmup;
    g->burst = 1;
  } else {
    g->rounds = opt_stream_rounds;
    g->warmup = MAX (1, opt_warmup / 5);
    g->burst = opt_burst;
  }
  return g;
}

static void
group_release (Group * g)
{
  guint i;

  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    g_clear_pointer (&s->pipe, bench_pipe_free);
  }
  for (i = 0; i < g->n_frames; i++) {
    gst_clear_buffer (&g->frames[i]);
    gst_clear_buffer (&g->plane_frames[i]);
  }
  g->n_frames = 0;
  g_clear_pointer (&g->dl_src, gst_memory_unref);
  g_clear_pointer (&g->dl_dst, gst_memory_unref);
  g_clear_pointer (&g->host_src, gst_memory_unref);
  g_clear_pointer (&g->host_dst, gst_memory_unref);
  g_clear_pointer (&g->pcie, bench_pcie_free);
  g_clear_pointer (&g->cuda, bench_cuda_free);
  g_clear_pointer (&g->pcie_pairings, g_free);
}

void
bench_group_free (Group * g)
{
  group_release (g);
  g_ptr_array_unref (g->subjects);
  g_free (g);
}

static Subject *
group_add (Group * g, SubjectKind kind, const gchar * element,
    const gchar * config, const gchar * middle)
{
  Subject *s = subject_new (kind, element, config, middle, g->rounds);
  g_ptr_array_add (g->subjects, s);
  return s;
}

/* The first subject again, under another name: the A/A check. */
static void
group_add_aa (Group * g)
{
  Subject *first = g_ptr_array_index (g->subjects, 0);
  gchar *config = g_strdup_printf ("%s (A/A)", first->config);
  Subject *s = group_add (g, first->kind, first->element, config,
      first->middle);

  s->is_aa = TRUE;
  g_free (config);
}

static void
group_add_pcie_floors (Group * g)
{
  group_add (g, SUBJECT_PCIE_UP, "floor", "PCIe upload", NULL);
  group_add (g, SUBJECT_PCIE_DOWN, "floor", "PCIe download", NULL);
  group_add (g, SUBJECT_PCIE_OVERLAP, "floor",
      "PCIe upload and download overlapped", NULL);
  group_add (g, SUBJECT_PCIE_SHADER, "floor",
      "PCIe both ways by a shader copy, host to host", NULL);
  group_add (g, SUBJECT_PCIE_CUDA, "floor",
      "PCIe both ways, CUDA's copy engines", NULL);
}

Subject *
bench_group_find (Group * g, SubjectKind kind)
{
  guint i;

  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    if (s->kind == kind)
      return s;
  }
  return NULL;
}

/* ---- frames ---- */

/* Random bytes (xorshift: fast enough for a ring of 4K frames): snow, so
 * that no shader profits from flat input. */
static void
fill_random (guint8 * data, gsize size, guint64 seed)
{
  guint64 x = seed * 0x9E3779B97F4A7C15ull + 1;
  gsize i;

  for (i = 0; i + 8 <= size; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    memcpy (data + i, &x, 8);
  }
  for (; i < size; i++)
    data[i] = (guint8) (x >> (8 * (i % 8)));
}

static void
add_video_meta (GstBuffer * buf, const GstVideoInfo * info)
{
  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
}

/* --regions: n "face" boxes in a grid of sqrt(n) x sqrt(n) cells over the
 * frame, each a quarter of its cell's area and centred in it, and one
 * "area" box of a quarter of the frame: the same pixels in all. */
static void
add_regions (GstBuffer * buf, const GstVideoInfo * info, gint n)
{
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint k = (gint) ceil (sqrt (n)), i;

  for (i = 0; i < n; i++) {
    gint cw = w / k, ch = h / k;
    gst_buffer_add_video_region_of_interest_meta (buf, "face",
        (i % k) * cw + cw / 4, (i / k) * ch + ch / 4, cw / 2, ch / 2);
  }
  gst_buffer_add_video_region_of_interest_meta (buf, "area", w / 4, h / 4,
      w / 2, h / 2);
}

/* The same frame as one memory per plane, sharing the bytes: gstvulkan
 * 1.22's vulkanupload reads a multi-planar frame from system memory only
 * in that layout (it asserts on one memory that holds all planes). */
static GstBuffer *
split_planes (GstBuffer * frame, const GstVideoInfo * info)
{
  GstMemory *mem = gst_buffer_peek_memory (frame, 0);
  GstBuffer *buf = gst_buffer_new ();
  guint i, n = GST_VIDEO_INFO_N_PLANES (info);

  for (i = 0; i < n; i++) {
    gsize end = i + 1 < n ? info->offset[i + 1] : info->size;
    gst_buffer_append_memory (buf, gst_memory_share (mem, info->offset[i],
            end - info->offset[i]));
  }
  add_video_meta (buf, info);
  return buf;
}

/* A ring of distinct frames: plain system memory, as a decoder or a camera
 * that ignores our pool hands them over, or device-local storage buffers
 * of the benchmark's device, as another vktile element outputs them. */
gboolean
bench_group_make_frames (Bench * b, Group * g, gboolean gpu_resident, guint n,
    GError ** error)
{
  GstVideoInfo info;
  GstMemory *staging = NULL;
  GstMapInfo map;
  guint i;

  gst_video_info_set_format (&info, g->format, g->width, g->height);
  if (gpu_resident) {
    staging = vkt_buffer_alloc (b->device, g->bytes, TRUE, error);
    if (!staging)
      return FALSE;
  }
  for (i = 0; i < n; i++) {
    GstBuffer *buf;
    if (!gpu_resident) {
      buf = gst_buffer_new_allocate (NULL, g->bytes, NULL);
      gst_buffer_map (buf, &map, GST_MAP_WRITE);
      fill_random (map.data, map.size, i + 1);
      gst_buffer_unmap (buf, &map);
    } else {
      GstMemory *mem = vkt_buffer_alloc (b->device, g->bytes, FALSE, error);
      VkBufferCopy region = { 0, 0, g->bytes };
      if (!mem)
        goto fail;
      gst_memory_map (staging, &map, GST_MAP_WRITE);
      fill_random (map.data, g->bytes, i + 1);
      gst_memory_unmap (staging, &map);
      buf = gst_buffer_new ();
      gst_buffer_append_memory (buf, mem);
      if (!vkt_compute_begin (b->compute, error)) {
        gst_buffer_unref (buf);
        goto fail;
      }
      vkt_compute_copy (b->compute, bench_vk_buffer (staging),
          bench_vk_buffer (mem), 1, &region);
      if (!vkt_compute_submit_wait (b->compute, error)) {
        gst_buffer_unref (buf);
        goto fail;
      }
    }
    add_video_meta (buf, &info);
    if (opt_regions > 0)
      add_regions (buf, &info, opt_regions);
    if (!gpu_resident)
      g->plane_frames[g->n_frames] = split_planes (buf, &info);
    g->frames[g->n_frames++] = buf;
  }
  g_clear_pointer (&staging, gst_memory_unref);
  return TRUE;

fail:
  g_clear_pointer (&staging, gst_memory_unref);
  return FALSE;
}

/* Buffers of the floors: device-local source and destination of the copy
 * floors, and the PCIe floor's own device. */
static gboolean
group_make_floor_buffers (Bench * b, Group * g, GError ** error)
{
  gsize size = GST_ROUND_UP_16 (g->bytes);

  if (!(g->dl_src = vkt_buffer_alloc (b->device, size, FALSE, error))
      || !(g->dl_dst = vkt_buffer_alloc (b->device, size, FALSE, error))
      || !(g->host_src = vkt_buffer_alloc (b->device, size, TRUE, error))
      || !(g->host_dst = vkt_buffer_alloc (b->device, size, TRUE, error))
      || !(g->pcie = bench_pcie_new (b->device, g->bytes, error)))
    return FALSE;
  {
    Subject *cuda = bench_group_find (g, SUBJECT_PCIE_CUDA);
    guint8 uuid[16];
    GError *why = NULL;

    bench_device_uuid (b, uuid);
    if (cuda && !(g->cuda = bench_cuda_new (uuid, g->bytes,
                BENCH_CUDA_PINNED, &why))) {
      /* not an NVIDIA driver, or not this GPU: no reference to show */
      GST_INFO ("no CUDA reference: %s", why->message);
      g_ptr_array_remove (g->subjects, cuda);
      g_clear_error (&why);
    }
  }
  g->pcie_one_queue = !bench_pcie_overlaps (g->pcie);
  g->pcie_pairings = g_strdup (bench_pcie_pairings (g->pcie));
  g->pcie_host_device_local = bench_pcie_host_is_device_local (g->pcie)
      && !b->is_cpu;
  return TRUE;
}

/* ---- one step of a subject ---- */

/* Frames a round of the CUDA reference copies back to back. */
#define CUDA_BURST 8

static gboolean
step_floor (Bench * b, Group * g, Subject * s, gdouble * ns, GError ** error)
{
  switch (s->kind) {
    case SUBJECT_PCIE_UP:
    case SUBJECT_PCIE_DOWN:
    case SUBJECT_PCIE_OVERLAP:
      return bench_pcie_time (g->pcie, s->kind == SUBJECT_PCIE_UP ?
          BENCH_PCIE_UP : s->kind == SUBJECT_PCIE_DOWN ? BENCH_PCIE_DOWN :
          BENCH_PCIE_BOTH, ns, error);
    case SUBJECT_COPY:
    case SUBJECT_SHADER_COPY:
      return bench_time_copy (b, g->dl_src, g->dl_dst, g->bytes,
          s->kind == SUBJECT_SHADER_COPY, ns, error);
    case SUBJECT_PCIE_SHADER:
      return bench_time_copy (b, g->host_src, g->host_dst, g->bytes, TRUE,
          ns, error);
    case SUBJECT_PCIE_CUDA:
      return bench_cuda_time (g->cuda, BENCH_CUDA_BOTH, CUDA_BURST, ns,
          error);
    default:
      g_assert_not_reached ();
      return FALSE;
  }
}

static gboolean
step_pipeline (Group * g, Subject * s, gdouble * ns, gdouble * gpu_ns,
    gdouble * busy_ns, GError ** error)
{
  BenchPipeResult r;

  if (!bench_pipe_push (s->pipe, s->plane_memories ? g->plane_frames :
          g->frames, g->n_frames, g->burst,
          opt_timeout, &r, error))
    return FALSE;
  s->dispatches = r.dispatches;
  if (!r.all_metas && s->kind == SUBJECT_ELEMENT)
    s->no_meta = TRUE;
  if (r.metas && r.dispatches == 0)
    s->no_dispatch = TRUE;
  if (g->kind != GROUP_SYSMEM && !s->images) {
    if (r.moved_ns)
      s->left_gpu = TRUE;
    if (!r.device_local)
      s->not_device_local = TRUE;
  }
  *gpu_ns = (gdouble) r.gpu_ns / r.frames;
  *busy_ns = (gdouble) r.busy_ns / r.frames;
  if (s->images)
    *ns = (gdouble) (r.gpu_ns + r.moved_ns) / r.frames;
  else if (s->kind == SUBJECT_ELEMENT)
    *ns = *gpu_ns;
  else                          /* the steady state between first and last arrival */
    *ns = r.frames > 1 ? (r.last_us - r.first_us) * 1e3 / (r.frames - 1) : 0;
  return TRUE;
}

/* ---- running a group ---- */

static gboolean
group_prepare (Bench * b, Group * g, GError ** error)
{
  gchar *caps_str;
  GstCaps *caps;
  guint i;

  if ((g->kind != GROUP_CHAIN && !group_make_floor_buffers (b, g, error))
      || !bench_group_make_frames (b, g, g->kind != GROUP_SYSMEM,
          g->kind == GROUP_SYSMEM ? MAX_FRAMES : 3, error))
    return FALSE;
  caps_str = g_strdup_printf ("video/x-raw%s,format=%s,width=%d,height=%d,"
      "framerate=30/1", g->kind == GROUP_SYSMEM ? "" :
      "(memory:VulkanBuffer)", gst_video_format_to_string (g->format),
      g->width, g->height);
  caps = gst_caps_from_string (caps_str);
  g_free (caps_str);
  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    GError *err = NULL;
    if (!s->middle)
      continue;
    if (opt_verbose)
      g_printerr ("  appsrc ! %s ! appsink\n", s->middle);
    s->pipe = bench_pipe_new (b->instance, s->middle, caps, &err);
    if (!s->pipe)
      subject_fail (s, "cannot build the pipeline", err);
    else if (s->images)
      bench_pipe_time_only (s->pipe, "el");
    g_clear_error (&err);
  }
  gst_caps_unref (caps);
  return TRUE;
}

/* Reads what each pipeline negotiated, before it goes. */
static void
group_collect (Group * g)
{
  guint i;

  for (i = 0; i < g->subjects->len; i++) {
    Subject *s = g_ptr_array_index (g->subjects, i);
    if (!s->pipe || !strstr (s->middle, " name=el "))
      continue;
    s->in_memory = bench_pipe_pad_memory (s->pipe, "el", "sink");
    s->out_memory = bench_pipe_pad_memory (s->pipe, "el", "src");
    if (opt_verbose)
      g_printerr ("  %s %s: in %s, out %s\n", s->element, s->config,
          s->in_memory, s->out_memory);
  }
}

static void
group_derive (Group * g)
{
  Subject *up = bench_group_find (g, SUBJECT_PCIE_UP);
  Subject *down = bench_group_find (g, SUBJECT_PCIE_DOWN);
  Subject *ovl = bench_group_find (g, SUBJECT_PCIE_OVERLAP);
  Subject *shader = bench_group_find (g, SUBJECT_PCIE_SHADER);
  Subject *seq;
  guint r;

  if (ovl && shader) {
    Subject *duplex = group_add (g, SUBJECT_PCIE_DUPLEX, "floor",
        "PCIe both ways at once", NULL);
    for (r = 0; r < g->rounds; r++)
      duplex->ns[r] = ovl->ns[r] > 0 && shader->ns[r] > 0 ?
          MIN (ovl->ns[r], shader->ns[r]) : MAX (ovl->ns[r], shader->ns[r]);
    duplex->failed = ovl->failed && shader->failed;
  }
  if (!up || !down)
    return;
  seq = group_add (g, SUBJECT_PCIE_SEQUENTIAL, "floor",
      "PCIe upload then download", NULL);
  for (r = 0; r < g->rounds; r++)
    seq->ns[r] = up->ns[r] > 0 && down->ns[r] > 0 ?
        up->ns[r] + down->ns[r] : 0;
  seq->failed = up->failed || down->failed;
}

/* Bursts long enough that a thread woken late or a clock tick does not
 * weigh in a round: sized from the fastest subject's last warm-up burst.
 * The frames cycle, so a burst may be long; the cap only bounds a round
 * whose warm-up read near zero (a fast CPU ran small lavapipe chains at
 * 8 µs a frame, so 240 frames were not 2 ms). */
#define MAX_BURST_FRAMES 8192
static void
group_size_bursts (Group * g, const gdouble * last_ns)
{
  gdouble fastest = 0;
  guint i;

  for (i = 0; i < g->subjects->len; i++)
    if (last_ns[i] > 0 && (fastest == 0 || last_ns[i] < fastest))
      fastest = last_ns[i];
  if (fastest > 0 && opt_burst_ms > 0)
    g->burst = CLAMP ((guint) ceil (opt_burst_ms * 1e6 / fastest),
        (guint) opt_burst, MAX_BURST_FRAMES);
  g_printerr ("  bursts of %u frames\n", g->burst);
}

void
bench_group_run (Bench * b, Group * g, guint index, guint n_groups)
{
  GError *error = NULL;
  guint n, r, p;
  gdouble *last_ns;

  g_printerr ("[%u/%u] %s %s %dx%d: %u subjects, %u + %u rounds of %u "
      "frame(s)\n", index + 1, n_groups, bench_group_kind_name (g->kind),
      gst_video_format_to_string (g->format), g->width, g->height,
      g->subjects->len, g->warmup, g->rounds, g->burst);
  /* this may leave out a reference the machine cannot time */
  if (!group_prepare (b, g, &error)) {
    for (p = 0; p < g->subjects->len; p++)
      subject_fail (g_ptr_array_index (g->subjects, p), "no buffers", error);
    g_clear_error (&error);
  }
  n = g->subjects->len;
  last_ns = g_new0 (gdouble, n);

  for (r = 0; r < g->warmup + g->rounds; r++) {
    gboolean measured = r >= g->warmup;
    if (r == g->warmup && g->burst > 1)
      group_size_bursts (g, last_ns);
    for (p = 0; p < n; p++) {
      Subject *s = g_ptr_array_index (g->subjects,
          bench_round_order (r, p, n));
      gdouble ns = 0, gpu_ns = 0, busy_ns = 0;
      gboolean ok;
      if (s->failed)
        continue;
      bench_heat (b);
      if (bench_subject_is_floor (s))
        ok = step_floor (b, g, s, &ns, &error);
      else
        ok = step_pipeline (g, s, &ns, &gpu_ns, &busy_ns, &error);
      if (!ok) {
        subject_fail (s, r ? "failed in a round" : "failed", error);
        g_clear_error (&error);
        continue;
      }
      last_ns[bench_round_order (r, p, n)] = s->kind == SUBJECT_STREAM ?
          ns : 0;
      if (measured) {
        s->ns[r - g->warmup] = ns;
        s->gpu_ns[r - g->warmup] = gpu_ns;
        s->busy_ns[r - g->warmup] = busy_ns;
      }
    }
  }
  group_collect (g);
  group_release (g);
  group_derive (g);
  g_free (last_ns);
}

/* ---- the plan of a run ---- */

gchar *
bench_element_middle (const gchar * element, const gchar * props,
    gboolean to_gpu)
{
  return g_strdup_printf ("%s name=el %s%s", element, props,
      to_gpu ? " ! video/x-raw(memory:VulkanBuffer)" : "");
}

/* Whether gstvulkan 1.22 can hold the format in a VulkanImage: its
 * gst_vulkan_format_from_video_info() aborts the process on the others
 * (the 10- and 16-bit YUV formats among them). */
static gboolean
has_vulkan_image_format (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_AYUV:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGB16:
    case GST_VIDEO_FORMAT_BGR16:
    case GST_VIDEO_FORMAT_GRAY16_BE:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y41B:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
      return TRUE;
    default:
      return FALSE;
  }
}

Group *
bench_plan_gpu (GArray * configs, GstVideoFormat format, gint w, gint h)
{
  Group *g = bench_group_new (GROUP_GPU, format, w, h);
  guint c;

  for (c = 0; c < configs->len; c++) {
    Config *cf = &g_array_index (configs, Config, c);
    gchar *middle = bench_element_middle (cf->element, cf->props, TRUE);
    group_add (g, SUBJECT_ELEMENT, cf->element, cf->props, middle);
    g_free (middle);
    if (c == 0)
      group_add_aa (g);
  }
  /* The same elements between images (what gstvulkan's elements and the
   * Vulkan decoders speak), made and read by vktile copies that are not
   * timed: the element's filter and its copies from and into images. */
  for (c = 0; opt_images && has_vulkan_image_format (format)
      && c < configs->len; c++) {
    Config *cf = &g_array_index (configs, Config, c);
    gchar *middle = g_strdup_printf ("tiledconv planes=0 ! "
        "video/x-raw(memory:VulkanImage) ! %s name=el %s ! "
        "video/x-raw(memory:VulkanImage) ! tiledconv planes=0 ! "
        "video/x-raw(memory:VulkanBuffer)", cf->element, cf->props);
    gchar *config = g_strdup_printf ("%s%simages in and out", cf->props,
        *cf->props ? "; " : "");
    group_add (g, SUBJECT_ELEMENT, cf->element, config, middle)->images = TRUE;
    g_free (config);
    g_free (middle);
  }
  group_add (g, SUBJECT_COPY, "floor", "vkCmdCopyBuffer", NULL);
  group_add (g, SUBJECT_SHADER_COPY, "floor", "shader copy", NULL);
  group_add_pcie_floors (g);
  return g;
}

Group *
bench_plan_sysmem (GArray * stream, GstVideoFormat format, gint w, gint h)
{
  Group *g = bench_group_new (GROUP_SYSMEM, format, w, h);
  const gchar *fmt = gst_video_format_to_string (format);
  gchar *rt;
  guint c;

  for (c = 0; c < stream->len; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    gchar *middle = bench_element_middle (cf->element, cf->props, FALSE);
    group_add (g, SUBJECT_STREAM, cf->element, cf->props, middle);
    g_free (middle);
    if (c == 0)
      group_add_aa (g);
  }
  /* gstvulkan 1.22's vulkandownload takes only VulkanImage: the round trip
   * goes through an image, with the format pinned on both sides (an
   * unconstrained vulkanupload may pick one gstvulkan aborts on). Formats
   * it has no image format for have no round trip to compare with. */
  if (has_vulkan_image_format (format)) {
    rt = g_strdup_printf ("vulkanupload ! video/x-raw(memory:VulkanImage),"
        "format=%s ! vulkandownload ! video/x-raw,format=%s", fmt, fmt);
    group_add (g, SUBJECT_STREAM, ROUND_TRIP, "", rt)->plane_memories = TRUE;
    g_free (rt);
    /* ... and each element inside that round trip, images in and out. */
    for (c = 0; opt_images && c < stream->len; c++) {
      Config *cf = &g_array_index (stream, Config, c);
      gchar *config = g_strdup_printf ("%s%sinside " ROUND_TRIP, cf->props,
          *cf->props ? "; " : "");
      rt = g_strdup_printf ("vulkanupload ! video/x-raw(memory:VulkanImage),"
          "format=%s ! %s name=el %s ! video/x-raw(memory:VulkanImage) ! "
          "vulkandownload ! video/x-raw,format=%s", fmt, cf->element,
          cf->props, fmt);
      group_add (g, SUBJECT_STREAM, cf->element, config, rt)->plane_memories =
          TRUE;
      g_free (config);
      g_free (rt);
    }
  }
  group_add_pcie_floors (g);
  return g;
}

static gchar *
chain_middle (GArray * stream, guint n)
{
  GString *s = g_string_new (NULL);
  guint c;

  for (c = 0; c < n; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    g_string_append_printf (s, "%s%s name=el%u %s ! "
        "video/x-raw(memory:VulkanBuffer)", c ? " ! " : "", cf->element, c,
        cf->props);
  }
  return g_string_free (s, FALSE);
}

static gchar *
chain_label (GArray * stream, guint n)
{
  GString *s = g_string_new (NULL);
  guint c;

  for (c = 0; c < n; c++) {
    Config *cf = &g_array_index (stream, Config, c);
    g_string_append_printf (s, "%s%s%s%s", c ? " ! " : "", cf->element,
        cf->props[0] ? " " : "", cf->props);
  }
  return g_string_free (s, FALSE);
}

Group *
bench_plan_chain (GArray * stream, gint w, gint h)
{
  Group *g = bench_group_new (GROUP_CHAIN, GST_VIDEO_FORMAT_RGBA, w, h);
  guint n;

  /* All the elements, then one fewer each row down to two. */
  for (n = stream->len; n >= 2; n--) {
    gchar *middle = chain_middle (stream, n);
    gchar *label = chain_label (stream, n);
    group_add (g, SUBJECT_STREAM, "chain", label, middle);
    if (n == stream->len)
      group_add_aa (g);
    g_free (middle);
    g_free (label);
  }
  return g;
}
