/* vktile tests — what the base class of the elements does for each of them,
 * tried through tiledconv (and gaussblur as its neighbour):
 *
 * - choosing the device: device-index and device-name pick one of those
 *   the machine lists, and one that does not exist is an error listing
 *   them; a device the pipeline already shares wins, with a warning;
 * - no Vulkan device at all: going to PAUSED fails with an error message
 *   from the element, not a crash (in a child process whose Vulkan loader
 *   finds no driver).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/check/gstcheck.h>
#include <gst/vulkan/vulkan.h>
#include <string.h>

#include "harness.h"

#define NO_VULKAN_CHILD_ARG "--no-vulkan-child"

/* ------------------------------------------------------------------------ */
/* choosing the device */

/* The devices this machine's Vulkan lists, as device-index numbers them. */
static GstVulkanInstance *
open_instance (void)
{
  GstVulkanInstance *instance = gst_vulkan_instance_new ();

  fail_unless (gst_vulkan_instance_open (instance, NULL));
  fail_unless (instance->n_physical_devices > 0);
  return instance;
}

static gchar *
device_name (GstVulkanInstance * instance, guint i)
{
  VkPhysicalDeviceProperties props;

  vkGetPhysicalDeviceProperties (instance->physical_devices[i], &props);
  return g_strdup (props.deviceName);
}


/* Runs `desc` to PAUSED; returns its bus's first error or warning (or
 * NULL) and the state change's result. */
static GstMessage *
pause_pipeline (GstElement * pipe, GstStateChangeReturn * ret)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;

  *ret = gst_element_set_state (pipe, GST_STATE_PAUSED);
  if (*ret == GST_STATE_CHANGE_ASYNC)
    *ret = gst_element_get_state (pipe, NULL, NULL, 60 * GST_SECOND);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  gst_object_unref (bus);
  return msg;
}

/* device-index and device-name pick the device among those listed (here
 * the last one, by index and by a piece of its name in other case); one
 * that does not exist is an error that lists what does. */
GST_START_TEST (test_device_choice)
{
  GstVulkanInstance *instance = open_instance ();
  guint last = instance->n_physical_devices - 1, round;
  gchar *name = device_name (instance, last);

  for (round = 0; round < 4; round++) {
    gchar *part = g_ascii_strup (name, MIN (strlen (name), 6));
    gchar *props = round == 0 ? g_strdup_printf ("device-index=%u", last) :
        round == 1 ? g_strdup_printf ("device-name=\"%s\"", part) :
        round == 2 ? g_strdup_printf ("device-index=%u", last + 1) :
        g_strdup ("device-name=\"no such GPU\"");
    gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! "
        "video/x-raw,format=GRAY8,width=16,height=8 ! tiledconv name=conv %s "
        "! fakesink", props);
    GstElement *pipe = gst_parse_launch (desc, NULL);
    GstElement *conv = gst_bin_get_by_name (GST_BIN (pipe), "conv");
    GstStateChangeReturn ret;
    GstMessage *msg = pause_pipeline (pipe, &ret);

    if (round < 2) {
      GstVulkanDevice *device = harness_element_device (conv);
      fail_unless (ret == GST_STATE_CHANGE_SUCCESS, "%s: %s", props,
          gst_element_state_change_return_get_name (ret));
      fail_unless (msg == NULL, "%s: a message on the bus", props);
      fail_unless (device != NULL, "%s: no device", props);
      fail_unless_equals_int (device->physical_device->device_index, last);
      fail_unless_equals_string (device->physical_device->properties.
          deviceName, name);
      gst_object_unref (device);
    } else {
      GError *err = NULL;
      fail_unless (ret == GST_STATE_CHANGE_FAILURE, "%s: %s", props,
          gst_element_state_change_return_get_name (ret));
      fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR,
          "%s: no error", props);
      gst_message_parse_error (msg, &err, NULL);
      fail_unless (strstr (err->message, name) != NULL, "%s: the error does "
          "not list the devices: %s", props, err->message);
      g_clear_error (&err);
    }
    if (msg)
      gst_message_unref (msg);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (conv);
    gst_object_unref (pipe);
    g_free (desc);
    g_free (props);
    g_free (part);
  }
  g_free (name);
  gst_object_unref (instance);
}

GST_END_TEST;

/* A device the pipeline already shares wins over device-name: the
 * element runs on it and warns, naming both. (gaussblur starts first,
 * downstream, and makes the device; tiledconv asks its neighbour.) */
GST_START_TEST (test_device_shared_wins)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=1 ! "
      "video/x-raw,format=GRAY8,width=16,height=8 ! tiledconv name=conv "
      "device-name=\"no such GPU\" ! gaussblur name=blur ! fakesink", NULL);
  GstElement *conv = gst_bin_get_by_name (GST_BIN (pipe), "conv");
  GstElement *blur = gst_bin_get_by_name (GST_BIN (pipe), "blur");
  GstVulkanDevice *a, *b;
  GstStateChangeReturn ret;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL;

  require_element_named ("gaussblur");
  msg = pause_pipeline (pipe, &ret);
  fail_unless (ret == GST_STATE_CHANGE_SUCCESS, "%s",
      gst_element_state_change_return_get_name (ret));
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING
      && GST_MESSAGE_SRC (msg) == GST_OBJECT (conv), "no warning from "
      "tiledconv");
  gst_message_parse_warning (msg, &err, &debug);
  a = harness_element_device (conv);
  b = harness_element_device (blur);
  fail_unless (a != NULL && a == b, "not the shared device");
  fail_unless (strstr (debug, "no such GPU")
      && strstr (debug, a->physical_device->properties.deviceName),
      "the warning does not name both: %s", debug);
  g_clear_error (&err);
  g_free (debug);
  gst_message_unref (msg);
  gst_object_unref (a);
  gst_object_unref (b);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (conv);
  gst_object_unref (blur);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* no Vulkan device */

/* Runs in a child process whose Vulkan loader finds no driver: PAUSED must
 * fail with an error message from tiledconv on the bus, not a crash. */
static int
no_vulkan_child (void)
{
  GstElement *pipeline, *conv;
  GstStateChangeReturn ret;
  GstMessage *msg;
  GError *err = NULL;
  gchar *debug = NULL, *text;
  GstBus *bus;
  int rc = 0;

  pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=RGBA,width=64,height=48 ! tiledconv name=conv ! "
      "fakesink", &err);
  if (!pipeline) {
    g_printerr ("cannot build the pipeline: %s\n", err->message);
    return 3;
  }
  conv = gst_bin_get_by_name (GST_BIN (pipeline), "conv");
  bus = gst_element_get_bus (pipeline);
  ret = gst_element_set_state (pipeline, GST_STATE_PAUSED);
  if (ret == GST_STATE_CHANGE_ASYNC)
    ret = gst_element_get_state (pipeline, NULL, NULL, 20 * GST_SECOND);
  msg = gst_bus_timed_pop_filtered (bus, 2 * GST_SECOND, GST_MESSAGE_ERROR);
  if (ret != GST_STATE_CHANGE_FAILURE) {
    g_printerr ("going to PAUSED without a Vulkan driver returned %s\n",
        gst_element_state_change_return_get_name (ret));
    rc = 4;
  }
  if (!msg) {
    g_printerr ("no error message on the bus\n");
    rc = rc ? rc : 5;
  } else {
    gst_message_parse_error (msg, &err, &debug);
    text = g_ascii_strdown (err->message, -1);
    g_print ("error from %s: %s (%s)\n", GST_MESSAGE_SRC_NAME (msg),
        err->message, GST_STR_NULL (debug));
    if (GST_MESSAGE_SRC (msg) != GST_OBJECT (conv)) {
      g_printerr ("the error does not come from tiledconv\n");
      rc = rc ? rc : 6;
    } else if (!strstr (text, "vulkan") && !strstr (text, "device")) {
      g_printerr ("the error message does not say what is missing\n");
      rc = rc ? rc : 7;
    }
    g_free (text);
    g_clear_error (&err);
    g_free (debug);
    gst_message_unref (msg);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (conv);
  gst_object_unref (pipeline);
  return rc;
}

/* The suite's setup: the child that test_no_vulkan_device spawns runs
 * no_vulkan_child() instead of the suite. */
static int
run_no_vulkan_child (int argc, char **argv)
{
  if (argc > 1 && !strcmp (argv[1], NO_VULKAN_CHILD_ARG)) {
    gst_init (NULL, NULL);
    return no_vulkan_child ();
  }
  return -1;
}

GST_START_TEST (test_no_vulkan_device)
{
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);
  gchar *argv[] = { self, (gchar *) NO_VULKAN_CHILD_ARG, NULL };
  gchar **envp = g_get_environ ();
  gchar *out = NULL, *errs = NULL;
  GError *error = NULL;
  gint status;

  require_element_named ("tiledconv");
  fail_unless (self != NULL);
  envp = g_environ_setenv (envp, "VK_DRIVER_FILES", "/nonexistent.json", TRUE);
  envp = g_environ_setenv (envp, "VK_ICD_FILENAMES", "/nonexistent.json",
      TRUE);
  envp = g_environ_unsetenv (envp, "VK_ADD_DRIVER_FILES");
  fail_unless (g_spawn_sync (NULL, argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
          &out, &errs, &status, &error), "spawn: %s",
      error ? error->message : "?");
  fail_unless (g_spawn_check_wait_status (status, &error),
      "child without a Vulkan driver: %s\n--- stdout\n%s--- stderr\n%s",
      error->message, out, errs);
  g_free (out);
  g_free (errs);
  g_strfreev (envp);
  g_free (self);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */

static const SuiteEntry basefilter_tests[] = {
  SUITE_CASE ("device"),
  SUITE_TEST (test_no_vulkan_device),
  SUITE_TEST (test_device_choice),
  SUITE_TEST (test_device_shared_wins),
};

SUITE_MAIN ("basefilter", basefilter_tests, NULL, run_no_vulkan_child);
