/* Internal helpers of the pushbuffer decoder (src/pushbuf/). */
#ifndef NVM_PB_INTERNAL_H
#define NVM_PB_INTERNAL_H

#include "core/core.h"
#include "nvmodel/pushbuf.h"

/* NV_FIFO_DMA fields (seed 000 section 6, "FIFO_DMA"). */
#define PB_DMA_METHOD_ADDRESS_OLD 12, 2
#define PB_DMA_METHOD_ADDRESS     11, 0
#define PB_DMA_SUBDEVICE_MASK     15, 4
#define PB_DMA_METHOD_SUBCHANNEL  15, 13
#define PB_DMA_TERT_OP            17, 16
#define PB_DMA_METHOD_COUNT_OLD   28, 18
#define PB_DMA_METHOD_COUNT       28, 16
#define PB_DMA_IMMD_DATA          28, 16
#define PB_DMA_SEC_OP             31, 29
#define PB_DMA_CTRL_OPCODE        31, 16 /* *_SUBDEVICE_MASK_OPCODE */
#define PB_DMA_RESERVED_BIT       12     /* "Bit 12 is reserved for the future expansion" */

/* Drops the printer's compiled methods (print.c): every later line is
 * formatted from the tables, as a reference for the tests. */
void pb_printer_uncached(nvm_pb_printer *p);
/* Bounds the memory of its compiled methods (default 16 MiB): past it, lines
 * are formatted from the tables. For the tests. */
void pb_printer_cache_limit(nvm_pb_printer *p, size_t bytes);

#define PB_FIELD(v, f)       PB_FIELD_(v, f)
#define PB_FIELD_(v, hi, lo) FIELD_GET(v, hi, lo)

#endif
