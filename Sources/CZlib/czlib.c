// CZlib is only a header; SwiftPM wants one source file in a C target.
