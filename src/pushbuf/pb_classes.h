/* The generated method tables (classes_gen.c) and their lookup helpers. */
#ifndef NVM_PB_CLASSES_H
#define NVM_PB_CLASSES_H

#include <stddef.h>

#include "nvmodel/pushbuf.h"

#endif
