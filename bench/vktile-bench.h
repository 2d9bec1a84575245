/* vktile-bench.h: what the files of vktile-bench share (private): the
 * configurations, the device of the run, the subjects and groups, the
 * report tables and CSV rows, the options other files read, and the
 * functions one file calls in another. */
#ifndef __VKT_BENCH_H__
#define __VKT_BENCH_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/vulkan/vulkan.h>

#include "benchcuda.h"
#include "benchpcie.h"
#include "benchpipe.h"
#include "benchstats.h"
#include "vktcompute.h"

G_BEGIN_DECLS

#define MAX_FRAMES 8
#define ROUND_TRIP "vulkanupload ! vulkandownload"

/* The options (vktile-bench.c) the other files read. */
extern gint opt_rounds;
extern gint opt_warmup;
extern gint opt_stream_rounds;
extern gint opt_burst;
extern gint opt_burst_ms;
extern gchar *opt_peers;
extern gint opt_timeout;
extern gint opt_device_index;
extern gchar *opt_device_name;
extern gboolean opt_verbose;
extern gboolean opt_images;
extern gint opt_regions;

typedef struct
{
  gchar *element;
  gchar *props;
} Config;

typedef struct
{
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  VktCompute *compute;
  gboolean has_timestamps;
  gboolean is_cpu;
  gchar *device_name;
  gchar *driver;
  gchar *api_version;
  gchar *uuid;                  /* as nvidia-smi spells it */
  const gchar *device_type;
  GstMemory *heat_src, *heat_dst;
  gchar *gpu_state_start, *gpu_state_end;
} Bench;

typedef enum
{
  SUBJECT_ELEMENT,              /* one frame a round, GPU time from the metas */
  SUBJECT_STREAM,               /* a burst a round, wall-clock time per frame */
  SUBJECT_COPY,                 /* vkCmdCopyBuffer, device-local both sides */
  SUBJECT_SHADER_COPY,          /* shaders/copy.comp, the same bytes */
  SUBJECT_PCIE_UP,              /* pinned host memory to device-local */
  SUBJECT_PCIE_DOWN,            /* device-local to pinned host memory */
  SUBJECT_PCIE_OVERLAP,         /* both in one submission, no barrier */
  /* shaders/copy.comp from pinned host memory to pinned host memory: both
   * directions in one dispatch, as a filter that reads and writes system
   * memory itself moves them */
  SUBJECT_PCIE_SHADER,
  /* CUDA's copy engines both ways at once on the same GPU (where the
   * driver's libcuda is): what the bus carries */
  SUBJECT_PCIE_CUDA,
  /* both ways at once: the faster of the two above, per round (derived) */
  SUBJECT_PCIE_DUPLEX,
  SUBJECT_PCIE_SEQUENTIAL,      /* up + down of the same round (derived) */
} SubjectKind;

typedef struct
{
  SubjectKind kind;
  gchar *element;               /* "tiledconv", "chain", "floor", ... */
  gchar *config;                /* its properties, or what the floor is */
  gchar *middle;                /* pipeline between appsrc and appsink */
  gboolean is_aa;               /* the repeat of the group's first subject */
  gboolean plane_memories;      /* fed frames of one memory per plane */
  /* The element reads and writes images (memory:VulkanImage): timed as
   * its gpu_ns plus the copies its meta counts as upload and download. */
  gboolean images;
  BenchPipe *pipe;
  gdouble *ns;                  /* per measured round: time per frame */
  gdouble *gpu_ns;              /* per measured round: GPU time per frame */
  /* per measured round, system memory: the GPU time of a frame's
   * submission, its transfers included */
  gdouble *busy_ns;
  guint dispatches;
  gboolean failed;
  gchar *message;               /* why it failed */
  gchar *in_memory, *out_memory;
  gboolean no_meta, no_dispatch, left_gpu, not_device_local;
} Subject;

typedef enum
{
  GROUP_GPU,
  GROUP_SYSMEM,
  GROUP_CHAIN,
} GroupKind;

typedef struct
{
  GroupKind kind;
  GstVideoFormat format;
  gint width, height;
  gsize bytes;
  guint rounds, warmup, burst;
  GPtrArray *subjects;
  GstBuffer *frames[MAX_FRAMES];
  GstBuffer *plane_frames[MAX_FRAMES];  /* the same, a memory per plane */
  guint n_frames;
  GstMemory *dl_src, *dl_dst;
  GstMemory *host_src, *host_dst;       /* SUBJECT_PCIE_SHADER */
  BenchPcie *pcie;
  BenchCuda *cuda;              /* SUBJECT_PCIE_CUDA */
  gboolean pcie_one_queue, pcie_host_device_local;
  gchar *pcie_pairings;         /* what each pairing of queues measured */
} Group;

/* A table printed both as aligned text and as Markdown, from the same
 * cells. */
typedef struct
{
  gchar *title;
  gchar *caption;
  guint n_cols;
  gchar **headers;
  gboolean *left;               /* text columns, aligned left */
  GPtrArray *rows;              /* gchar** of n_cols */
} Table;

/* One CSV row; every cell is a number, empty, or quoted text. */
typedef struct
{
  const gchar *section, *element, *config;
  const Group *g;
  BenchSpread time, fps, x_copy, x_shader, x_roundtrip, x_pcie;
  gdouble x_ref;
  const gchar *ref_algorithm;
  gdouble gpu_us;
  const gchar *note;
} CsvRow;

#define CSV_HEADER "section,element,configuration,format,width,height," \
  "rounds,median_us,p25_us,p75_us,fps,fps_p25,fps_p75,x_copy,x_copy_p25," \
  "x_copy_p75,x_shader,x_shader_p25,x_shader_p75,x_ref,ref_algorithm," \
  "x_roundtrip,x_roundtrip_p25,x_roundtrip_p75,x_pcie,x_pcie_p25,x_pcie_p75," \
  "gpu_us,note,mean_us,x_copy_mean\n"

/* benchdevice.c: the device of the run. */
gboolean bench_open (Bench * b, GError ** error);
void bench_close (Bench * b);
VkBuffer bench_vk_buffer (GstMemory * mem);
gboolean bench_record_shader_copy (Bench * b, GstMemory * src,
    GstMemory * dst, gsize bytes, GError ** error);
/* VkPhysicalDeviceIDProperties' deviceUUID of the run's device. */
void bench_device_uuid (Bench * b, guint8 uuid[16]);
gboolean bench_time_copy (Bench * b, GstMemory * src, GstMemory * dst,
    gsize bytes, gboolean shader, gdouble * ns, GError ** error);
void bench_heat (Bench * b);
/* benchqueue.c: --queue-probe. */
void bench_queue_probe (Bench * b, gsize frame_bytes, const gchar * what,
    GString * md);
gchar *bench_read_gpu_state (Bench * b);

/* benchgroups.c: subjects, groups, their rounds and the plan of a run. */
const gchar *bench_group_kind_name (GroupKind k);
gboolean bench_subject_is_floor (const Subject * s);
gchar *bench_subject_label (const Subject * s);
Group *bench_group_new (GroupKind kind, GstVideoFormat format, gint w,
    gint h);
void bench_group_free (Group * g);
Subject *bench_group_find (Group * g, SubjectKind kind);
gboolean bench_group_make_frames (Bench * b, Group * g,
    gboolean gpu_resident, guint n, GError ** error);
void bench_group_run (Bench * b, Group * g, guint index, guint n_groups);
gchar *bench_element_middle (const gchar * element, const gchar * props,
    gboolean to_gpu);
Group *bench_plan_gpu (GArray * configs, GstVideoFormat format, gint w,
    gint h);
Group *bench_plan_sysmem (GArray * stream, GstVideoFormat format, gint w,
    gint h);
Group *bench_plan_chain (GArray * stream, gint w, gint h);

/* benchreport.c: tables, CSV and the reports. */
void bench_say (const gchar * format, ...) G_GNUC_PRINTF (1, 2);
Table *bench_table_new (const gchar * title, const gchar * caption,
    const gchar * headers);
void bench_table_add (Table * t, ...);
void bench_table_free (Table * t);
void bench_table_finish (Table * t, GString * md);
gchar *bench_fmt_spread (const BenchSpread * s, const gchar * unit,
    gint decimals);
gchar *bench_fmt_us (const BenchSpread * s);
gchar *bench_fmt_size (const Group * g);
void bench_csv_add (GString * csv, const CsvRow * r);
void bench_report_floors (GPtrArray * groups, GString * md, GString * csv);
void bench_report_gpu (GPtrArray * groups, GString * md, GString * csv);
void bench_report_sysmem (GPtrArray * groups, GString * md, GString * csv);
void bench_report_chain (GPtrArray * groups, GString * md, GString * csv);
gboolean bench_report_repeatability (GPtrArray * groups, GString * md,
    GString * csv);
void bench_report_header (Bench * b, const gchar * cmdline, gdouble seconds,
    GString * md);

/* benchpeers.c: the peers' rows (bench/peers.py). */
void bench_report_peers (GPtrArray * groups, GString * md, GString * csv);

G_END_DECLS

#endif
