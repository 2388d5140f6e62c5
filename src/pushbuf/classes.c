/*
 * Lookups in the generated method tables (classes_gen.c, written by
 * tools/gen/gen_pb_classes.py from NVIDIA's class headers; docs/pushbuf.md
 * "Method tables"). Nothing here is built at start-up: the tables are const
 * data without pointers, and a class's methods are sorted by address.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pb_classes.h"
#include "pb_internal.h"

const nvm_pb_class *nvm_pb_class_find(uint32_t id)
{
	size_t lo = 0, hi = nvm_pb_nclasses;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (nvm_pb_classes[mid].id == id)
			return &nvm_pb_classes[mid];
		if (nvm_pb_classes[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const nvm_pb_class *nvm_pb_class_find_tag(const char *tag)
{
	if (!tag)
		return NULL;
	for (size_t i = 0; i < nvm_pb_nclasses; i++)
		if (!strcasecmp(nvm_pb_classes[i].tag, tag))
			return &nvm_pb_classes[i];
	return NULL;
}

const nvm_pb_class *nvm_pb_class_get(size_t i)
{
	return i < nvm_pb_nclasses ? &nvm_pb_classes[i] : NULL;
}

const nvm_pb_method *nvm_pb_class_method_at(const nvm_pb_class *c, size_t i)
{
	return c && i < c->nmethods ? &nvm_pb_methods[c->methods[i]] : NULL;
}

/* Element number of addr in m, or -1. */
static long element_of(const nvm_pb_method *m, uint32_t addr)
{
	if (addr == m->addr)
		return 0;
	if (!m->count || addr < m->addr || !m->stride)
		return -1;
	uint32_t off = addr - m->addr;
	if (off % m->stride || off / m->stride >= m->count)
		return -1;
	return (long)(off / m->stride);
}

const nvm_pb_method *nvm_pb_class_lookup(const nvm_pb_class *c, uint32_t addr, uint32_t *index)
{
	if (!c)
		return NULL;
	/* A single method or element 0: binary search on the address. */
	size_t lo = 0, hi = c->nmethods;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint32_t a = nvm_pb_methods[c->methods[mid]].addr;
		if (a == addr) {
			if (index)
				*index = 0;
			return &nvm_pb_methods[c->methods[mid]];
		}
		if (a < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Another element of an array that starts below addr (interleaved
	 * arrays make the nearest one not necessarily the owner). */
	for (size_t i = lo; i-- > 0;) {
		const nvm_pb_method *m = &nvm_pb_methods[c->methods[i]];
		long k = element_of(m, addr);
		if (k >= 0) {
			if (index)
				*index = (uint32_t)k;
			return m;
		}
	}
	return NULL;
}

const nvm_pb_method *nvm_pb_class_method(const nvm_pb_class *c, uint32_t addr)
{
	return nvm_pb_class_lookup(c, addr, NULL);
}

const nvm_pb_method *nvm_pb_class_method_by_name(const nvm_pb_class *c, const char *name)
{
	if (!c || !name)
		return NULL;
	for (size_t i = 0; i < c->nmethods; i++) {
		const nvm_pb_method *m = &nvm_pb_methods[c->methods[i]];
		if (!strcasecmp(nvm_pb_name(m->name), name))
			return m;
	}
	return NULL;
}

/* Reads a decimal or 0x number up to `stop`; false if none. */
static bool read_index(const char **s, char stop, uint32_t *v)
{
	const char *p = *s;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	uint32_t x = 0;
	const char *start = p;
	for (; *p && *p != stop; p++) {
		int d;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = tolower((unsigned char)*p) - 'a' + 10;
		else
			return false;
		if (x > 0xffffu)
			return false;
		x = x * (uint32_t)base + (uint32_t)d;
	}
	if (p == start || *p != stop)
		return false;
	*s = p + 1;
	*v = x;
	return true;
}

bool nvm_pb_class_resolve(const nvm_pb_class *c, const char *name, uint32_t *addr)
{
	if (!c || !name)
		return false;
	const char *paren = strchr(name, '(');
	if (!paren) {
		const nvm_pb_method *m = nvm_pb_class_method_by_name(c, name);
		if (m)
			*addr = m->addr;
		return m != NULL;
	}
	char base[96];
	size_t bl = (size_t)(paren - name);
	if (bl >= sizeof(base))
		return false;
	memcpy(base, name, bl);
	base[bl] = 0;
	const nvm_pb_method *m = nvm_pb_class_method_by_name(c, base);
	if (!m || !m->count)
		return false;
	const char *p = paren + 1;
	uint32_t i, j = 0, k;
	if (m->flags & NVM_PB_METHOD_2D) {
		if (!read_index(&p, ',', &i) || !read_index(&p, ')', &j) || j >= m->inner)
			return false;
		k = i * m->inner + j;
	} else {
		if (!read_index(&p, ')', &i))
			return false;
		k = i;
	}
	if (*p || k >= m->count)
		return false;
	*addr = m->addr + k * m->stride;
	return true;
}

size_t nvm_pb_method_format_name(const nvm_pb_method *m, uint32_t index, char *buf, size_t n)
{
	int r;
	if (!m->count)
		r = snprintf(buf, n, "%s", nvm_pb_name(m->name));
	else if (m->flags & NVM_PB_METHOD_2D)
		r = snprintf(buf, n, "%s(%u,%u)", nvm_pb_name(m->name), index / m->inner, index % m->inner);
	else
		r = snprintf(buf, n, "%s(%u)", nvm_pb_name(m->name), index);
	return r < 0 ? 0 : (size_t)r;
}

size_t nvm_pb_method_label(uint32_t cls, uint32_t addr, char *buf, size_t n)
{
	if (!n)
		return 0;
	buf[0] = 0;
	const nvm_pb_class *c = cls <= 0xffff ? nvm_pb_class_find(cls) : NULL;
	uint32_t idx = 0;
	const nvm_pb_method *m = c ? nvm_pb_class_lookup(c, addr, &idx) : NULL;
	if (!m || n < 6)
		return 0;
	memcpy(buf, c->tag, 4);
	buf[4] = '.';
	buf[5] = 0;
	size_t k = nvm_pb_method_format_name(m, idx, buf + 5, n - 5);
	return k < n - 5 ? 5 + k : n - 1;
}

const char *nvm_pb_field_value_name(const nvm_pb_field *f, uint32_t v)
{
	/* the first value >= v (the list is sorted by value) */
	unsigned lo = 0, hi = f->nvalues;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (nvm_pb_field_value(f, mid)->value < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nvalues && nvm_pb_field_value(f, lo)->value == v)
		return nvm_pb_name(nvm_pb_field_value(f, lo)->name);
	return NULL;
}

/* The channel class whose methods below 0x100 (SET_OBJECT, SET_REFERENCE,
 * the semaphores) a pre-Fermi chip's old-format stream uses: NV10's DMA
 * channel 006E for NV10..NV17, 406E for NV40/NV41, the GPFIFO classes 506F,
 * 826F (G84, G92) and 866F (GT215) for the G80 family, whose DMA channels
 * (506E...) the references lack. NV04's 006C defines no method. UNVERIFIED
 * (docs/fidelity.md): which channel class a driver allocates is driver
 * knowledge. It belongs with the chip profiles (pb_gens, decode.c). */
static const struct {
	const char *chip;
	uint16_t cls;
} old_hosts[] = {
	{ "nv10", 0x006e }, { "nv11", 0x006e }, { "nv17", 0x006e }, { "nv40", 0x406e },  { "nv41", 0x406e },
	{ "g80", 0x506f },  { "g84", 0x826f },  { "g92", 0x826f },  { "gt215", 0x866f },
};

const nvm_pb_class *nvm_pb_host_class(const nvm_pb_gen *gen, nvm_pb_format f)
{
	if (gen && f == NVM_PB_FORMAT_OLD && !(gen->accepts & NVM_PB_ACC_NEW)) {
		for (size_t i = 0; i < sizeof(old_hosts) / sizeof(old_hosts[0]); i++)
			if (!strcmp(old_hosts[i].chip, gen->chip))
				return nvm_pb_class_find(old_hosts[i].cls);
		return NULL;
	}
	if (!gen || f != NVM_PB_FORMAT_NEW || !(gen->accepts & NVM_PB_ACC_NEW) || !gen->host_class)
		return NULL;
	const nvm_pb_class *c = nvm_pb_class_find(gen->host_class);
	/* UNVERIFIED: a host class the tables lack (C96F, CA6F) is named
	 * with the newest older host class they have. */
	for (size_t i = nvm_pb_nclasses; !c && i-- > 0;)
		if ((nvm_pb_classes[i].id & 0xff) == (gen->host_class & 0xffu) &&
		    nvm_pb_classes[i].id < gen->host_class)
			c = &nvm_pb_classes[i];
	return c;
}
