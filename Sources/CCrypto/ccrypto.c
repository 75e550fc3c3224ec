// SwiftPM needs one C source in a C target; ccrypto.h is header-only.
