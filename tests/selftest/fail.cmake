# cmake -DMSG=<text> -P fail.cmake: a selftest that cannot run says why and fails.
message(FATAL_ERROR "ngcc: ${MSG}")
