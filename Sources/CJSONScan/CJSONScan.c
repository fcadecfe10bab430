/* The scanner is header-only (CJSONScan.h); this file gives SwiftPM a C target to build. */
