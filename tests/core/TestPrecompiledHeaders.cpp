// The translation unit that builds the core tests' shared precompiled header
// (tests/CMakeLists.txt); it has no code of its own.
