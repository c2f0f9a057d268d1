// llama.cpp's C API, from the build of scripts/setup-llama.sh (found through pkg-config `guided-llama`).
// Only GuidedLlama imports this module, and only with the package trait `Llama`.
#include <llama.h>
