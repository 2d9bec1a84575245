/* benchpcie.h: the PCIe floor of vktile-bench — a frame copied from pinned
 * host memory to device-local memory, back, and both at once, by the GPU's
 * copy commands. It runs on a VkDevice of its own with two queues of each
 * queue family (gstvulkan 1.22 opens one queue, on which the two
 * directions of the bus never overlap), and carries the two directions on
 * the pairing of queues that was fastest when it was made. */
#ifndef __VKT_BENCH_PCIE_H__
#define __VKT_BENCH_PCIE_H__

#include <gst/vulkan/vulkan.h>

G_BEGIN_DECLS

typedef struct _BenchPcie BenchPcie;

typedef enum
{
  BENCH_PCIE_UP,                /* host to device */
  BENCH_PCIE_DOWN,              /* device to host */
  BENCH_PCIE_BOTH,              /* both at once, one per queue */
} BenchPcieMode;

BenchPcie *bench_pcie_new (GstVulkanDevice * device, gsize bytes,
    GError ** error);
gboolean bench_pcie_time (BenchPcie * pcie, BenchPcieMode mode,
    gdouble * ns, GError ** error);
gboolean bench_pcie_overlaps (BenchPcie * pcie);
/* What each pairing of queues measured for both directions at once. */
const gchar *bench_pcie_pairings (BenchPcie * pcie);
gboolean bench_pcie_host_is_device_local (BenchPcie * pcie);
void bench_pcie_free (BenchPcie * pcie);

G_END_DECLS

#endif
