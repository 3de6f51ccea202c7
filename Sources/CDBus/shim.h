// libdbus-1 for Swift. The DBUS_TYPE_* macros are not imported (they are casts of character
// literals); AirlinkBlueZ defines them in Swift (DBusTypeCode). Variadic functions such as
// dbus_message_append_args are not imported either: Airlink uses the DBusMessageIter API.
#include <dbus/dbus.h>
// The event loop's wake-up descriptor (not in Swift's Glibc module).
#include <sys/eventfd.h>
