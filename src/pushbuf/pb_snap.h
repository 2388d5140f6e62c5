/*
 * Snapshots of a pushbuffer decoder between feeds (issue 22 item 3): what
 * a front end that keeps its decoder across its steps (the Volta PBDMA
 * while a channel is loaded) saves of it. The configuration and the sink
 * are the front end's: it initialises the decoder (nvm_pb_decoder_init) before
 * the load puts the state back.
 */
#ifndef NVM_PB_SNAP_H
#define NVM_PB_SNAP_H

#include "core/core.h"
#include "nvmodel/pushbuf.h"

/* The decoder's state between two feeds: the pending sequence, the
 * subdevice mask, the stream position and the counts. */
void pb_decoder_snap_save(const nvm_pb_decoder *d, struct snap_w *w);
/* Reads it back; checks it against what the decoder's transitions can leave
 * in stream format `format` (a sequence past the method space, a mode out
 * of range...: the reader's err becomes NVM_ERR_CORRUPT). With apply, d
 * (initialised by the caller with its configuration) gets the state. */
void pb_decoder_snap_load(nvm_pb_decoder *d, nvm_pb_format format, struct snap_r *r, bool apply);

#endif
