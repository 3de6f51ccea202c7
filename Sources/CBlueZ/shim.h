// libbluetooth for Swift: BD_ADDR helpers (str2ba, ba2str) and the HCI calls BlueZ's D-Bus API lacks.
// ioctl is variadic and so not imported by Swift; the small wrappers below make the calls instead.
// Each returns 0 (or a count) on success and -errno on failure.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

/// Fills `ids` with the ids of up to `max` HCI devices; returns how many, or -errno
/// (-EAFNOSUPPORT, 97, where the kernel has no Bluetooth).
static inline int airlink_hci_device_ids(uint16_t *ids, int max) {
    int sock = socket(AF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
    if (sock < 0) return -errno;
    struct hci_dev_list_req *list = calloc(1, sizeof(*list) + HCI_MAX_DEV * sizeof(struct hci_dev_req));
    if (list == NULL) { close(sock); return -ENOMEM; }
    list->dev_num = HCI_MAX_DEV;
    if (ioctl(sock, HCIGETDEVLIST, (void *) list) < 0) {
        int error = errno;
        free(list);
        close(sock);
        return -error;
    }
    int count = list->dev_num < max ? list->dev_num : max;
    for (int index = 0; index < count; index++) ids[index] = list->dev_req[index].dev_id;
    free(list);
    close(sock);
    return count;
}

/// Reads an HCI device's information (name, address, flags); 0 or -errno.
static inline int airlink_hci_device_info(int dev_id, struct hci_dev_info *info) {
    return hci_devinfo(dev_id, info) < 0 ? -errno : 0;
}

/// Whether the device is up (HCI_UP).
static inline int airlink_hci_device_is_up(const struct hci_dev_info *info) {
    return hci_test_bit(HCI_UP, &info->flags) ? 1 : 0;
}

/// Reads the RSSI of the connection to `address` (link type 0x80 LE, 0x01 ACL) on HCI device `dev_id`;
/// 0 or -errno (-ENOTCONN when no such connection exists).
static inline int airlink_hci_read_rssi(int dev_id, const bdaddr_t *address, uint8_t link_type, int8_t *rssi,
                                        int timeout_ms) {
    int dd = hci_open_dev(dev_id);
    if (dd < 0) return -errno;
    struct hci_conn_info_req *request = calloc(1, sizeof(*request) + sizeof(struct hci_conn_info));
    if (request == NULL) { hci_close_dev(dd); return -ENOMEM; }
    bacpy(&request->bdaddr, address);
    request->type = link_type;
    if (ioctl(dd, HCIGETCONNINFO, (void *) request) < 0) {
        int error = errno;
        free(request);
        hci_close_dev(dd);
        return -error;
    }
    uint16_t handle = request->conn_info->handle;
    free(request);
    if (hci_read_rssi(dd, handle, rssi, timeout_ms) < 0) {
        int error = errno;
        hci_close_dev(dd);
        return -error;
    }
    hci_close_dev(dd);
    return 0;
}
