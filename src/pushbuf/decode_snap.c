/* Snapshots of a decoder between feeds (pb_snap.h). */
#include "pb_snap.h"

void pb_decoder_snap_save(const nvm_pb_decoder *d, struct snap_w *w)
{
	snap_u64(w, d->pos);
	snap_u32(w, d->remaining);
	snap_u32(w, d->index);
	snap_u32(w, d->subch);
	snap_u32(w, d->method);
	snap_u32(w, (uint32_t)d->mode);
	snap_u64(w, d->hdr_offset);
	snap_u32(w, d->hdr_word);
	snap_u32(w, (uint32_t)d->lenp | (uint32_t)d->skipping << 1 | (uint32_t)d->active << 2);
	snap_u32(w, d->stored_mask);
	snap_u64(w, d->methods);
	snap_u64(w, d->quiet_at);
}

/* What the decoder's sequences can be: a count of at most 13 bits in the
 * new format (11 in the old), a method address below 0x4000 (0x2000 old),
 * an incrementing sequence not past the method space (COUNT_OVERFLOW ends
 * it before), no IMMD data entries, the old format's long-count word only
 * in the old format. */
static bool state_ok(nvm_pb_format format, uint64_t pos, uint32_t remaining, uint32_t index, uint32_t subch,
                     uint32_t method, uint32_t mode, uint64_t hdr_offset, uint32_t flags, uint32_t mask,
                     uint64_t quiet_at)
{
	bool nw = format == NVM_PB_FORMAT_NEW;
	uint32_t cmax = nw ? 0x1fffu : 0x7ffu, mmax = nw ? 0x4000u : 0x2000u;
	if (flags > 7 || mask > 0xfffu || subch > 7 || mode > NVM_PB_MODE_IMMD || (method & 3u) || method >= mmax)
		return false;
	if (remaining > cmax || index > cmax || hdr_offset > pos || (quiet_at != UINT64_MAX && quiet_at > pos))
		return false;
	if ((flags & 1u) && nw)
		return false; /* lenp: the old format's long NINC */
	if (mode == NVM_PB_MODE_IMMD && remaining)
		return false;
	if (mode == NVM_PB_MODE_INC && (uint64_t)method + 4ull * ((uint64_t)index + remaining) > mmax)
		return false;
	return true;
}

void pb_decoder_snap_load(nvm_pb_decoder *d, nvm_pb_format format, struct snap_r *r, bool apply)
{
	uint64_t pos = snap_get_u64(r);
	uint32_t remaining = snap_get_u32(r), index = snap_get_u32(r), subch = snap_get_u32(r);
	uint32_t method = snap_get_u32(r), mode = snap_get_u32(r);
	uint64_t hdr_offset = snap_get_u64(r);
	uint32_t hdr_word = snap_get_u32(r), flags = snap_get_u32(r), mask = snap_get_u32(r);
	uint64_t methods = snap_get_u64(r), quiet_at = snap_get_u64(r);
	if (r->err)
		return;
	if (!state_ok(format, pos, remaining, index, subch, method, mode, hdr_offset, flags, mask, quiet_at)) {
		r->err = NVM_ERR_CORRUPT;
		return;
	}
	if (!apply)
		return;
	nvm_pb_decoder_state s = { .remaining = remaining,
		                   .index = index,
		                   .subch = subch,
		                   .method = method,
		                   .mode = (nvm_pb_mode)mode,
		                   .hdr_word = hdr_word,
		                   .lenp = flags & 1u,
		                   .skipping = (flags >> 1) & 1u,
		                   .active = (flags >> 2) & 1u,
		                   .stored_mask = mask };
	nvm_pb_restore(d, &s);
	d->pos = pos;
	d->hdr_offset = hdr_offset;
	d->methods = methods;
	d->quiet_at = quiet_at;
}
