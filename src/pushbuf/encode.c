/*
 * Encoding of PB instructions: the inverse of decode.c, used by the
 * assembler, the asm-style printer (to check a word re-encodes exactly) and
 * by code that builds pushbuffers. Field layouts: seed 000 section 6
 * (NV_FIFO_DMA_*) and envytools dma-pusher.rst for the old format.
 */
#include "pb_internal.h"

/* SEC_OP of each mode in the new format (NV_FIFO_DMA_SEC_OP_*). */
static const uint32_t new_sec_op[4] = {
	[NVM_PB_MODE_INC] = 1, [NVM_PB_MODE_NINC] = 3, [NVM_PB_MODE_1INC] = 5, [NVM_PB_MODE_IMMD] = 4
};

bool nvm_pb_encode_method(nvm_pb_format f, nvm_pb_mode mode, uint32_t subch, uint32_t method, uint32_t count,
                          uint32_t *word)
{
	if ((unsigned)mode > NVM_PB_MODE_IMMD || subch > 7 || (method & 3))
		return false;
	if (f == NVM_PB_FORMAT_NEW) {
		if (method > 0x3ffc || count > 0x1fff)
			return false;
		*word = new_sec_op[mode] << 29 | count << 16 | subch << 13 | method >> 2;
		return true;
	}
	/* old: increasing (000) or non-increasing (010) methods, 11-bit count */
	if ((mode != NVM_PB_MODE_INC && mode != NVM_PB_MODE_NINC) || method > 0x1ffc || count > 0x7ff)
		return false;
	*word = (mode == NVM_PB_MODE_NINC ? 0x40000000u : 0) | count << 18 | subch << 13 | method;
	return true;
}

bool nvm_pb_encode_control(nvm_pb_format f, nvm_pb_ctrl kind, uint32_t value, uint32_t *word)
{
	if (f == NVM_PB_FORMAT_NEW) {
		switch (kind) {
		case NVM_PB_CTRL_NOP: *word = 0; return true;
		case NVM_PB_CTRL_SET_SUBDEVICE_MASK:
		case NVM_PB_CTRL_STORE_SUBDEVICE_MASK:
			if (value > 0xfff)
				return false;
			*word = (kind == NVM_PB_CTRL_SET_SUBDEVICE_MASK ? 0x00010000u : 0x00020000u) | value << 4;
			return true;
		case NVM_PB_CTRL_USE_SUBDEVICE_MASK: *word = 0x00030000u; return true;
		case NVM_PB_CTRL_END_SEGMENT: *word = 0xe0000000u; return true;
		default: return false;
		}
	}
	switch (kind) {
	case NVM_PB_CTRL_OLD_JUMP:
		if (value > 0x1fffffffu || (value & 3))
			return false;
		*word = 0x20000000u | value;
		return true;
	case NVM_PB_CTRL_JUMP:
	case NVM_PB_CTRL_CALL:
		if (value & 3)
			return false;
		*word = value | (kind == NVM_PB_CTRL_JUMP ? 1u : 2u);
		return true;
	case NVM_PB_CTRL_RETURN: *word = 0x00020000u; return true;
	case NVM_PB_CTRL_SLI_CONDITIONAL:
		if (value > 0xfff)
			return false;
		*word = 0x00010000u | value << 4;
		return true;
	default: return false;
	}
}
