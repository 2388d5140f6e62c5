/*
 * The copy engine (class C3B5, VOLTA_DMA_COPY_A). Until it is written, copy
 * engines record their methods like GR (docs/host.md).
 */
#include "engine.h"

nvm_status engine_ce_init(struct engine *e)
{
	return engine_recorder_init(e);
}
