// SwiftPM needs one C source in a C target; csqlite.h is header-only.
