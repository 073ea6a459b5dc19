#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
#include <bluetooth/l2cap.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

/// Whether another process holds adapter `dd` (an `hci_open_dev` socket)
/// through the HCI user channel, as Bumble or btvirt's peer do: the kernel
/// refuses every bound ioctl on such an adapter with EBUSY before it looks at
/// the request. HCIGETCONNINFO for the all-zero address answers ENOENT on a
/// free adapter. Returns 0 (free), or the errno.
static inline int liftbuddy_hci_probe_held(int dd) {
  struct {
    struct hci_conn_info_req request;
    struct hci_conn_info info;
  } buffer;
  memset(&buffer, 0, sizeof buffer);
  buffer.request.type = ACL_LINK;
  if (ioctl(dd, HCIGETCONNINFO, (unsigned long)&buffer) == 0) return 0;
  return errno == ENOENT ? 0 : errno;
}
