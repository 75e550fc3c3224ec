// libsonic's header (Debian's libsonic-dev, the 2015 release 0.2.0): speed with the pitch kept.
// It has no pkg-config file: Package.swift links -lsonic.
#include <sonic.h>
