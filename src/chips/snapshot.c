/*
 * nvm_snapshot_save / nvm_snapshot_load: the pieces put together. The core
 * saves what it owns (snap.c: time, registers, memory, PMC, events,
 * watches), the engine layer the engines (engine.c), each block its own
 * state (struct block_snap); this file sits above them all, as the chip
 * registry does.
 */
#include "core/core.h"
#include "engine/engine.h"

static nvm_status save_all(nvm_gpu *gpu, struct snap_w *w)
{
	nvm_status st = snap_save_core(gpu, w);
	if (!st)
		st = engine_snap_save(gpu, w);
	if (!st)
		st = snap_save_blocks(gpu, w);
	return st ? st : w->err;
}

nvm_status nvm_snapshot_save(nvm_gpu *gpu, void *buf, size_t cap, size_t *len)
{
	if (!gpu || !len || (cap && !buf))
		return NVM_ERR_ARG;
	if (gpu->depth || gpu->running)
		return NVM_ERR_BUSY;
	struct snap_w w = { 0 };
	nvm_status st = save_all(gpu, &w); /* measure first: never a half-written buffer */
	*len = w.len;
	if (st || !buf)
		return st;
	if (cap < w.len)
		return NVM_ERR_NOMEM;
	w = (struct snap_w){ .buf = buf, .cap = cap };
	return save_all(gpu, &w);
}

static nvm_status load_all(nvm_gpu *gpu, struct snap_r r, bool apply)
{
	nvm_status st = snap_load_core(gpu, &r, apply);
	if (!st)
		st = engine_snap_load(gpu, &r, apply);
	if (!st)
		st = snap_load_blocks(gpu, &r, apply);
	if (!st && r.pos != r.len)
		st = NVM_ERR_CORRUPT; /* bytes after the last section */
	return st;
}

nvm_status nvm_snapshot_load(nvm_gpu *gpu, const void *buf, size_t len)
{
	if (!gpu || !buf)
		return NVM_ERR_ARG;
	if (gpu->depth || gpu->running)
		return NVM_ERR_BUSY;
	struct snap_r r = { buf, len, 0, NVM_OK };
	api_enter(gpu);
	nvm_status st = load_all(gpu, r, false);
	if (!st)
		st = load_all(gpu, r, true);
	api_leave(gpu);
	return st;
}

nvm_status nvm_snapshot_peek(const void *buf, size_t len, nvm_snapshot_info *info)
{
	if (!buf || !info)
		return NVM_ERR_ARG;
	struct snap_r r = { buf, len, 0, NVM_OK };
	return snap_peek(&r, info);
}
