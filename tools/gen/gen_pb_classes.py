#!/usr/bin/env python3
"""Writes nvmodel's pushbuffer method tables from NVIDIA's class headers.

usage: tools/gen/gen_pb_classes.py HEADER_DIR [-o src/pushbuf/classes_gen.c] [--check] [--report]

HEADER_DIR holds NVIDIA's published class headers (open-gpu-doc `classes/`,
e.g. refs/nvidia-classes/ of the nvmodel brief): cl906f.h, clc397.h ... in any
sub-directory. Every cl<4 hex digits>.h is read (the QMD layouts cl*qmd.h are
not). The output is checked in; docs/pushbuf.md "Method tables" describes the
format and when to run this again. --check compares instead of writing
(exit 1 on a difference); --report prints what was inferred (array sizes,
dropped defines) for review.

Two views of each class are written:

* ours: every method the header defines, with its fields (hi:lo) and enum
  values in header order; array methods NAME(i) with their element count
  inferred from the layout (the headers give the formula, not the count);
* Mesa's: what Mesa's generated dumpers (src/nouveau/headers/class_parser.py,
  driven by nv_push.c's vk_push_print) print for each address, so that
  `pb decode --style mesa` reproduces Mesa's text. That generator reads the
  headers line by line with a small state machine, names only the array
  elements of a fixed size list, treats a fixed list of methods as floats and
  lets a class fall back to the previous class of its family (in Mesa's list
  order) for every method whose description did not change, which prints the
  older class's prefix. The model below reproduces those rules; its facts are
  listed in docs/pushbuf.md.

The data is written without pointers (offsets into one string pool and index
ranges into shared arrays), so it costs no relocations at start-up, and every
method description, field list and value list is stored once however many
classes share it.
"""
import argparse
import os
import re
import sys

# ---------------------------------------------------------------- header reading

DEFINE = re.compile(r'^\s*#\s*define\s+(\S+)(?:\s+(.*?))?\s*$')


def unparen(s):
    s = s.strip()
    while s.startswith('(') and s.endswith(')'):
        s = s[1:-1].strip()
    return s


def number(s):
    s = unparen(s)
    if re.fullmatch(r'0[xX][0-9a-fA-F]+', s):
        return int(s, 16)
    if re.fullmatch(r'[0-9]+', s):
        return int(s)
    return None


def defines(path):
    """(name, value text) of every #define line, in order."""
    out = []
    with open(path, encoding='utf-8', errors='replace') as f:
        # the NV04-era headers continue some defines on the next line
        for line in f.read().replace('\\\n', ' ').split('\n'):
            m = DEFINE.match(line)
            if m:
                val = m.group(2) or ''
                val = re.sub(r'/\*.*?\*/', '', val).split('//')[0].strip()
                out.append((m.group(1), val))
    return out


class Field:
    def __init__(self, name, hi, lo):
        self.name, self.hi, self.lo = name, hi, lo
        self.values = []  # (name, value) in header order

    def key(self):
        return (self.name, self.hi, self.lo, tuple(self.values))


class Method:
    def __init__(self, name, addr, stride=0, inner=0, dims=0):
        self.name = name
        self.addr = addr      # byte address of element 0
        self.stride = stride  # bytes between elements (arrays)
        self.inner = inner    # NAME(i,j): elements per i
        self.dims = dims      # 0 scalar, 1 NAME(i), 2 NAME(i,j)
        self.count = 0        # array elements (inferred)
        self.size = 0         # array elements (given by the header)
        self.fields = []
        self.is_float = False


ARRAY1 = re.compile(r'(0x[0-9a-fA-F]+)\s*\+\s*\(?([a-z])\)?\s*\*\s*(0x[0-9a-fA-F]+|[0-9]+)')
ARRAY2 = re.compile(r'(0x[0-9a-fA-F]+)\s*\+\s*\(?i\)?\s*\*\s*([0-9]+)\s*\+\s*\(?j\)?\s*\*\s*([0-9]+)')


# Pre-Fermi headers (NV04..G80) name many methods without a field define
# (NV042_SET_OFFSET_SOURCE) and put enum values on the method itself
# (NV042_SET_COLOR_FORMAT_LE_Y8): such a method gets one 31:0 field named V,
# the later headers' name for a whole-word field (UNVERIFIED, docs/fidelity.md:
# the name is ours). Defines that only describe
# the channel (DMA_*, GP_ENTRY*, notifiers) are not methods.
PRE_FERMI = 0x9000
NOT_METHODS = re.compile(r'(DMA_|GP_ENTRY|NOTIF|NUMBER_OF_|TYPEDEF|OPCODE|METHOD_|JUMP_|DATA$)')
METHOD_ADDR = re.compile(r'\(0x[0-9a-fA-F]{8}\)')


def class_prefix(cid):
    """NVIDIA's define prefix: NV906F_, and NV06E_ for the 00xx classes."""
    return ('NV%03X_' if cid < 0x1000 else 'NV%04X_') % cid


# Host classes whose header is not in the references, written as the newest
# one that is with the differences RM's published header shows
# (host-generations-facts.md H4: OGKM's clc86f.h against clc76f.h). That
# header is reduced, so UNVERIFIED (docs/fidelity.md): every method it does
# not show is as in the base class. Its GP entry changes (GP_ENTRY0
# PB_EXTENDED_BASE_OPERAND 24:8, GP_ENTRY1 OPCODE 4) describe the channel,
# not methods: they are not in these tables.
DERIVED = {
    0xC86F: (0xC76F, 'HOPPER_CHANNEL_GPFIFO_A', {
        'SEM_ADDR_HI_OFFSET': '24:0',
        'MEM_OP_A_TLB_INVALIDATE_CANCEL_MMU_ENGINE_ID': '8:0',
    }),
}


def derived_defines(base_path, base, cid, cname, changes):
    """The defines of base's header as class cid's, with changes (define
    without prefix -> value) applied; every change must name a define."""
    bp, p = class_prefix(base), class_prefix(cid)
    out, used = [], set()
    for name, val in defines(base_path):
        if name.startswith(bp):
            short = name[len(bp):]
            if short in changes:
                val = changes[short]
                used.add(short)
            out.append((p + short, val))
        elif number(val) == base and not name.startswith('_'):
            out.append((cname, '(0x%08X)' % cid))
        else:
            out.append((name, val))
    missing = set(changes) - used
    if missing:
        sys.exit('%04X: %s not in %s' % (cid, ', '.join(sorted(missing)), base_path))
    return out


def parse_class(path, cid, report, defs=None):
    """Our reading of a class header (or of defs, its defines): (class name, [Method])."""
    prefix = class_prefix(cid)
    whole = {}  # pre-Fermi: method without a field -> its values
    cname = None
    methods = []
    by_name = {}
    cur = None
    for name, val in defines(path) if defs is None else defs:
        if not name.startswith(prefix):
            if cname is None and number(val) == cid and not name.startswith('_'):
                cname = name
            continue
        short = name[len(prefix):]
        m = re.fullmatch(r'(\w+)\(([a-z]|i,j)\)', short)
        if m:
            body = unparen(val).replace(' ', '')
            if m.group(2) == 'i,j':
                a = ARRAY2.fullmatch(body)
                if not a:
                    report.append('%s: cannot read %s %s' % (path, name, val))
                    continue
                si, sj = int(a.group(2), 0), int(a.group(3), 0)
                cur = Method(m.group(1), int(a.group(1), 16), sj, si // sj, 2)
            else:
                a = ARRAY1.fullmatch(body)
                if not a:
                    report.append('%s: cannot read %s %s' % (path, name, val))
                    continue
                cur = Method(m.group(1), int(a.group(1), 16), int(a.group(3), 0), 0, 1)
            methods.append(cur)
            by_name[cur.name] = cur
            if cid < PRE_FERMI:
                whole.setdefault(cur.name, [])
            continue
        bits = re.fullmatch(r'([0-9]+):([0-9]+)', unparen(val))
        if bits:
            owner = owner_method(short, cur, by_name)
            if owner is None:
                cur = None  # a field of something else (the DMA format, GP entries)
                continue
            owner.fields.append(Field(short[len(owner.name) + 1:], int(bits.group(1)), int(bits.group(2))))
            cur = owner
            continue
        v = number(val)
        if v is None:
            continue
        size = re.fullmatch(r'(\w+)__SIZE_1', short)
        if cid < PRE_FERMI and size and size.group(1) in by_name and by_name[size.group(1)].dims:
            by_name[size.group(1)].size = v  # the pre-Fermi headers give some array sizes
            continue
        fld = owner_field(short, cur, by_name)
        if fld is not None:
            meth, f = fld
            f.values.append((short[len(meth.name) + len(f.name) + 2:], v))
            cur = meth
            continue
        if cid < PRE_FERMI:
            owner = owner_method(short, cur, by_name)
            if owner is not None and not owner.fields and v < 0x100 and owner.name in whole:
                whole[owner.name].append((short[len(owner.name) + 1:], v))
                continue
        cur = Method(short, v)
        methods.append(cur)
        by_name.setdefault(short, cur)
        if cid < PRE_FERMI and METHOD_ADDR.fullmatch(val) and not NOT_METHODS.match(short):
            whole.setdefault(short, [])
    kept = []
    described = set(m.addr for m in methods if m.fields)
    for m in methods:
        if m.name in whole and not m.fields and m.dims:
            group = [n for n in methods if n is not m and n.addr == m.addr and n.name.startswith(m.name + '_')]
            if group:
                # NV07B_COLOR(a) groups COLOR_A(a), COLOR_B(a): its size is theirs
                for n in methods:
                    if n.dims and n.name.startswith(m.name + '_') and not n.size:
                        n.size = m.size
                continue
        # (an array without fields at the address of one with fields only
        # groups them: NV04A_UNCLIPPED_RECTANGLE(a))
        if not m.fields and m.name in whole and m.addr not in described:
            m.fields.append(Field('V', 31, 0))
            m.fields[0].values = whole[m.name]
        if not m.fields:
            report.append('%s: %s has no fields: not a method' % (os.path.basename(path), m.name))
            continue
        if m.addr % 4 or m.addr >= (0x2000 if cid < PRE_FERMI else 0x4000):
            report.append('%s: %s at 0x%x is not a method address' % (os.path.basename(path), m.name, m.addr))
            continue
        kept.append(m)
    return cname, kept


def owner_method(short, cur, by_name):
    """The method a FIELD define (NAME_FIELD) belongs to: the current one, or
    the longest method name that prefixes it."""
    if cur is not None and short.startswith(cur.name + '_'):
        best = cur
    else:
        best = None
    cut = len(short)
    while True:
        cut = short.rfind('_', 0, cut)
        if cut <= 0:
            break
        cand = by_name.get(short[:cut])
        if cand is not None:
            if best is None or len(cand.name) > len(best.name):
                best = cand
            break
    return best


def owner_field(short, cur, by_name):
    """(method, field) an enum value define (NAME_FIELD_VALUE) belongs to."""
    cands = []
    if cur is not None:
        cands.append(cur)
    cut = len(short)
    while True:
        cut = short.rfind('_', 0, cut)
        if cut <= 0:
            break
        cand = by_name.get(short[:cut])
        if cand is not None and cand is not cur:
            cands.append(cand)
    best = None
    for m in cands:
        if not short.startswith(m.name + '_'):
            continue
        rest = short[len(m.name) + 1:]
        for f in m.fields:
            if rest.startswith(f.name + '_') and (best is None or len(m.name) + len(f.name) > best[2]):
                best = (m, f, len(m.name) + len(f.name))
    return None if best is None else (best[0], best[1])


def infer_counts(methods, report, tag, space=0x4000):
    """Array element counts: an array (or a group of arrays interleaved with
    the same stride) runs until the next address defined by something else,
    or the end of the method space (0x4000; 0x2000 before Fermi, whose
    headers address methods with bits 12:2)."""
    points = sorted(set(m.addr for m in methods))
    arrays = sorted((m for m in methods if m.dims), key=lambda m: m.addr)
    groups = []
    for a in arrays:
        for g in groups:
            if g[0].stride == a.stride and g[0].inner == a.inner and g[0].addr <= a.addr < g[0].addr + a.stride:
                g.append(a)
                break
        else:
            groups.append([a])
    for g in groups:
        start = g[0].addr
        step = g[0].stride * (g[0].inner if g[0].dims == 2 else 1)
        members = set(m.addr for m in g)
        limit = space
        for p in points:
            if p > start and p not in members:
                limit = p
                break
        n = max(1, (limit - start + step - 1) // step)
        # an array must not run into a scalar defined between its elements
        for m in g:
            while n > 1 and any(m.addr + k * step in points and m.addr + k * step not in members
                                for k in range(1, n)):
                n -= 1
        for m in g:
            size = m.size or next((c for pat, c in ARRAY_SIZES if glob(pat, m.name)), None)
            k = n
            if size is not None:
                k = min(n, size)
            elif n & (n - 1):
                k = 1 << (n.bit_length() - 1)  # UNVERIFIED (docs/fidelity.md): a gap follows; assume a power of two
            m.count = k * (m.inner if m.dims == 2 else 1)
            report.append('%s: %s(%s) x %d (stride %d)' % (tag, m.name, 'i,j' if m.dims == 2 else 'i',
                                                             m.count, m.stride))


# Element counts of array methods where the layout alone would overstate
# them (reserved space follows the array). Mesa's size list (below) is used
# too; for other arrays the count runs to the next defined method, rounded
# down to a power of two when it is not one.
ARRAY_SIZES = [
    ('SET_POSITION_W_SCALED_OFFSET_*', 16),      # one per viewport
    ('SET_STREAM_OUT_LAYOUT_SELECT', 4),         # (i, j): 4 buffers of 32 entries
    ('SET_POLYGON_STIPPLE_PATTERN', 32),         # a 32x32 pattern, one row per method
    ('SET_VARIABLE_PIXEL_RATE_SHADING_*', 16),   # one per viewport
]


# Methods whose data is an IEEE float (our text styles print the value too).
# Every 32-bit field of these methods holds a float. UNVERIFIED
# (docs/fidelity.md): the headers type no method; Mesa's list plus the clear
# values.
OUR_FLOATS = [
    'SET_BLEND_CONST_*', 'SET_DEPTH_BIAS', 'SET_SLOPE_SCALE_DEPTH_BIAS', 'SET_DEPTH_BIAS_CLAMP',
    'SET_DEPTH_BOUNDS_MIN', 'SET_DEPTH_BOUNDS_MAX', 'SET_LINE_WIDTH_FLOAT', 'SET_ALIASED_LINE_WIDTH_FLOAT',
    'SET_VIEWPORT_SCALE_*', 'SET_VIEWPORT_OFFSET_*', 'SET_VIEWPORT_CLIP_MIN_Z', 'SET_VIEWPORT_CLIP_MAX_Z',
    'SET_Z_CLEAR_VALUE', 'SET_POINT_SIZE', 'SET_COLOR_CLEAR_VALUE',
]

# ---------------------------------------------------------------- Mesa's dumpers (a model)

# Mesa's list of class headers (src/nouveau/headers/meson.build nv_classes,
# Mesa 26.3-devel, sailfishos-mirror/mesa cbec1262), in its order: a class's
# "previous" class is the last one before it with the same two last digits.
# Classes not in HEADER_DIR are skipped (the host classes c86f/c96f/ca6f and
# the video decoders c5b0/c7b0/c9b0 are not in the references).
MESA_CLASSES = '''
85b5 902d 9039 906f 9097 90b5 90c0 91c0 9297 a040 a0b5 a06f a097 a140 a16f a1c0 a197 a26f a297
b06f b097 b0b5 b0c0 b197 b1c0 c06f c097 c197 c1b5 c1c0 a0c0 c0b5 c0c0 c36f c397 c3b5 c3c0 c46f
c56f c597 c5b0 c5b5 c5c0 c697 c6b5 c6c0 c797 c7b0 c7b5 c7c0 c86f c8b5 c96f c997 c9b0 c9b5 c9c0
ca6f cab5 cb97 cbc0 cd97 cdc0 cec0 ce97'''.split()

# class_parser.py METHOD_ARRAY_SIZES: the only array methods Mesa names
# (glob -> elements); other arrays print as unknown methods.
MESA_ARRAY_SIZES = [
    ('BIND_GROUP_CONSTANT_BUFFER', 16), ('CALL_MME_DATA', 256), ('CALL_MME_MACRO', 256),
    ('LOAD_CONSTANT_BUFFER', 16), ('LOAD_INLINE_QMD_DATA', 64), ('SET_ANTI_ALIAS_SAMPLE_POSITIONS', 4),
    ('SET_BLEND', 8), ('SET_BLEND_PER_TARGET_*', 8), ('SET_COLOR_TARGET_*', 8), ('SET_COLOR_COMPRESSION', 8),
    ('SET_COLOR_CLEAR_VALUE', 4), ('SET_CT_WRITE', 8), ('SET_MME_SHADOW_SCRATCH', 256),
    ('SET_MULTI_VIEW_RENDER_TARGET_ARRAY_INDEX_OFFSET', 4), ('SET_PIPELINE_*', 6),
    ('SET_ROOT_TABLE_VISIBILITY', 8), ('SET_SCG_COMPUTE_SCHEDULING_PARAMETERS', 16),
    ('SET_SCG_GRAPHICS_SCHEDULING_PARAMETERS', 16), ('SET_SCISSOR_*', 16),
    ('SET_SHADER_PERFORMANCE_SNAPSHOT_COUNTER_VALUE*', 8), ('SET_SHADER_PERFORMANCE_COUNTER_VALUE*', 8),
    ('SET_SHADER_PERFORMANCE_COUNTER_EVENT', 8), ('SET_SHADER_PERFORMANCE_COUNTER_CONTROL_A', 8),
    ('SET_SHADER_PERFORMANCE_COUNTER_CONTROL_B', 8), ('SET_SHADING_RATE_INDEX_SURFACE_*', 1),
    ('SET_SPARE_MULTI_VIEW_RENDER_TARGET_ARRAY_INDEX_OFFSET', 4), ('SET_STREAM_OUT_BUFFER_*', 4),
    ('SET_STREAM_OUT_CONTROL_*', 4), ('SET_VARIABLE_PIXEL_RATE_SAMPLE_ORDER', 13),
    ('SET_VARIABLE_PIXEL_RATE_SHADING_CONTROL*', 16), ('SET_VARIABLE_PIXEL_RATE_SHADING_INDEX_TO_RATE*', 16),
    ('SET_VIEWPORT_*', 16), ('SET_VERTEX_ATTRIBUTE_*', 16), ('SET_VERTEX_STREAM_*', 16),
    ('SET_WINDOW_CLIP_*', 8), ('SET_CLIP_ID_EXTENT_*', 4),
]

ARRAY_SIZES += MESA_ARRAY_SIZES

# class_parser.py METHOD_IS_FLOAT: printed as "%ff (0x%x)".
MESA_FLOATS = [
    'SET_BLEND_CONST_*', 'SET_DEPTH_BIAS', 'SET_SLOPE_SCALE_DEPTH_BIAS', 'SET_DEPTH_BIAS_CLAMP',
    'SET_DEPTH_BOUNDS_M*', 'SET_LINE_WIDTH_FLOAT', 'SET_ALIASED_LINE_WIDTH_FLOAT', 'SET_VIEWPORT_SCALE_*',
    'SET_VIEWPORT_OFFSET_*', 'SET_VIEWPORT_CLIP_MIN_Z', 'SET_VIEWPORT_CLIP_MAX_Z', 'SET_Z_CLEAR_VALUE',
    'SET_POINT_SIZE',
]

# Enum names containing this are skipped by Mesa's generator.
MESA_SKIP_VALUE = 'CURRENT_SCG_TYPE'


def glob(pattern, name):
    if pattern.endswith('*'):
        return name.startswith(pattern[:-1])
    return name == pattern


class MesaMethod:
    def __init__(self, name, addr_text, is_array):
        self.name, self.addr_text, self.is_array = name, addr_text, is_array
        self.fields = []  # [name, lo, hi, {value name: text}]
        self.size = next((n for g, n in MESA_ARRAY_SIZES if glob(g, name)), 0)

    def key(self):
        return (self.name, self.addr_text, self.is_array,
                tuple((f[0], f[1], f[2], tuple(f[3].items())) for f in self.fields))

    @property
    def is_float(self):
        return any(glob(g, self.name) for g in MESA_FLOATS)


def mesa_parse(path, cid):
    """The methods Mesa's class_parser.py finds in a header: a line state
    machine (method, then its fields, then a field's values) reset by blank
    lines; methods without a field are dropped; a define that looks like a
    method while a method is open does not start a new one."""
    nvcl = 'NV%04X' % cid
    methods = {}
    state, cur, curf = 0, None, None

    def drop_if_empty():
        if cur is not None and not cur.fields:
            del methods[cur.name]

    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if line.strip() == '':
                state = 0
                drop_if_empty()
                cur = None
                continue
            if not line.startswith('#define'):
                continue
            items = [unparen(e) for e in line.split()]
            if len(items) < 2 or '_cl_' in items[1]:
                continue
            if not items[1].startswith(nvcl) or items[1].endswith('VIDEO_DECODER'):
                continue
            if items[1].endswith('TYPEDEF'):
                continue
            val = items[2] if len(items) > 2 else ''
            if state == 2:
                test = '%s_%s_%s_' % (nvcl, cur.name, curf[0])
                if ':' in val:
                    state = 1
                elif test in items[1]:
                    if MESA_SKIP_VALUE not in items[1]:
                        curf[3][items[1].replace(test, '', 1) if items[1].startswith(test) else items[1]] = val
                else:
                    state = 1
            if state == 1:
                test = '%s_%s_' % (nvcl, cur.name)
                if test in items[1]:
                    if '0x' not in val:
                        hi, lo = val.split(':')
                        name = items[1][len(test):] if items[1].startswith(test) else items[1]
                        curf = [name, int(lo), int(hi), {}]
                        cur.fields.append(curf)
                        state = 2
                else:
                    drop_if_empty()
                    cur = None
                    state = 0
            if state == 0:
                drop_if_empty()
                if ':' in val:
                    continue
                name = items[1][len(nvcl) + 1:]
                is_array = False
                for suffix in ('(i)', '(j)'):
                    if name.endswith(suffix):
                        is_array = True
                        name = name[:-len(suffix)]
                cur = MesaMethod(name, val, is_array)
                methods[name] = cur
                state = 1
    return methods


def mesa_addr(m, i):
    """Value of a method's address expression (element i)."""
    expr = m.addr_text.replace('(i)', '(%d)' % i).replace('(j)', '(%d)' % i)
    expr = re.sub(r'\b([ij])\b', str(i), expr)
    if not re.fullmatch(r'[0-9a-fA-FxX+*() ]+', expr):
        return None
    try:
        return eval(expr, {'__builtins__': {}})  # digits, x, + * ( ) only
    except SyntaxError:
        return None


class MesaClass:
    """One generated dumper: its own cases, and the previous class it falls
    back to (for methods equal to the previous class's, or for every address
    it has no case for when no method was removed)."""

    def __init__(self, cid, methods, prev):
        self.cid, self.prev = cid, prev
        prev_methods = prev.methods if prev else {}
        self.methods = methods
        self.removed = any(n not in methods for n in prev_methods)
        self.own = {}     # addr -> (method, element)
        self.routed = set()
        for m in methods.values():
            same = prev is not None and m.name in prev_methods and prev_methods[m.name].key() == m.key()
            n = m.size if m.is_array else 1
            for i in range(n):
                a = mesa_addr(m, i)
                if a is None:
                    continue
                if same:
                    self.routed.add(a)
                else:
                    self.own[a] = (m, i)

    def resolve(self, addr):
        """(class id, method, element) Mesa prints for addr, or None."""
        if addr in self.own:
            return (self.cid, ) + self.own[addr]
        if self.prev is not None and (addr in self.routed or not self.removed):
            return self.prev.resolve(addr)
        return None


# ---------------------------------------------------------------- records

class Tables:
    """Deduplicating writers for strings, value lists, field lists and method records."""

    def __init__(self):
        self.strings = {}
        self.pool = []
        self.pool_len = 0
        self.values = []
        self.value_lists = {}
        self.fields = []
        self.field_lists = {}
        self.records = []
        self.record_index = {}

    def string(self, s):
        """Offset of s in the pool; each name is preceded by its length
        (one byte) and followed by a NUL."""
        if s not in self.strings:
            assert len(s) < 256
            self.strings[s] = self.pool_len + 1
            self.pool.append(s)
            self.pool_len += len(s) + 2
        return self.strings[s]

    def value_list(self, values):
        # sorted by value for a binary search; stable, so among names for
        # one value the header's first stays first
        values = sorted(values, key=lambda nv: nv[1])
        key = tuple(values)
        if key not in self.value_lists:
            self.value_lists[key] = len(self.values)
            self.values.extend((v, self.string(n)) for n, v in values)
        return self.value_lists[key]

    def field_list(self, fields):
        rows = tuple((self.string(n), self.value_list(vals), len(vals), hi, lo) for n, hi, lo, vals in fields)
        if rows not in self.field_lists:
            self.field_lists[rows] = len(self.fields)
            self.fields.extend(rows)
        return self.field_lists[rows]

    def record(self, name, addr, count, stride, inner, flags, fields):
        key = (self.string(name), self.field_list(fields), addr, count, len(fields), stride, inner, flags)
        if key not in self.record_index:
            self.record_index[key] = len(self.records)
            self.records.append(key)
        return self.record_index[key]


FLAG_FLOAT = 1
FLAG_2D = 2


def our_record(t, m):
    flags = FLAG_FLOAT if any(glob(g, m.name) for g in OUR_FLOATS) else 0
    if m.dims == 2:
        flags |= FLAG_2D
    fields = [(f.name, f.hi, f.lo, f.values) for f in m.fields]
    return t.record(m.name, m.addr, m.count if m.dims else 0, m.stride, m.inner, flags, fields)


def mesa_record(t, m, addr0, stride):
    flags = FLAG_FLOAT if m.is_float else 0
    fields = []
    for name, lo, hi, defs in m.fields:
        seen, vals = set(), []
        for vname, text in defs.items():
            v = number(text)
            if v is None or v in seen:
                continue  # Mesa's switch has one case per value: the first name wins
            seen.add(v)
            vals.append((vname, v))
        fields.append((name, hi, lo, vals))
    return t.record(m.name, addr0, m.size if m.is_array else 0, stride, 0, flags, fields)


# ---------------------------------------------------------------- output

def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '\\0"'


def emit(classes, t, mesa_lists, out):
    w = out.append
    w('/*')
    w(' * GENERATED by tools/gen/gen_pb_classes.py from NVIDIA\'s class headers')
    w(' * (open-gpu-doc classes/, MIT): do not edit. Regenerate with')
    w(' *   python3 tools/gen/gen_pb_classes.py <dir of cl*.h> -o src/pushbuf/classes_gen.c')
    w(' * (docs/pushbuf.md "Method tables"). %d classes, %d method descriptions,' % (len(classes), len(t.records)))
    w(' * %d fields, %d enum values, %d bytes of names.' % (len(t.fields), len(t.values), t.pool_len + 64))
    w(' */')
    w('#include "pb_classes.h"')
    w('')
    w('/* clang-format off */')
    w('/* Each name: its length (a byte), the name, a NUL. 64 bytes of padding end')
    w(' * the pool, so a printer may copy names in fixed-size blocks. */')
    w('const char nvm_pb_names[] =')
    for s in t.pool:
        w('\t"\\x%02x" %s /* %d */' % (len(s), c_string(s), t.strings[s]))
    w('\t"' + '\\0' * 64 + '";')
    w('')
    w('const nvm_pb_value nvm_pb_values[] = {')
    for i in range(0, len(t.values), 4):
        w('\t' + ' '.join('{ 0x%x, %d },' % v for v in t.values[i:i + 4]))
    w('};')
    w('')
    w('/* { name, first value, values, hi, lo } */')
    w('const nvm_pb_field nvm_pb_fields[] = {')
    for i in range(0, len(t.fields), 3):
        w('\t' + ' '.join('{ %d, %d, %d, %d, %d },' % f for f in t.fields[i:i + 3]))
    w('};')
    w('')
    w('/* { name, first field, addr, count, fields, stride, inner, flags } */')
    w('const nvm_pb_method nvm_pb_methods[] = {')
    for r in t.records:
        w('\t{ %d, %d, 0x%x, %d, %d, %d, %d, %d },' % r)
    w('};')
    w('')
    for c in classes:
        w('static const uint16_t methods_%04x[] = {' % c['id'])
        idx = c['methods']
        for i in range(0, len(idx), 12):
            w('\t' + ' '.join('%d,' % x for x in idx[i:i + 12]))
        w('};')
        ml = mesa_lists.get(c['id'])
        if ml is not None:
            w('static const nvm_pb_mesa_entry mesa_%04x[] = {' % c['id'])
            for i in range(0, len(ml), 6):
                w('\t' + ' '.join('{ %d, 0x%x },' % e for e in ml[i:i + 6]))
            w('};')
    w('')
    w('const nvm_pb_class nvm_pb_classes[] = {')
    for c in classes:
        ml = mesa_lists.get(c['id'])
        mesa = 'mesa_%04x, %d' % (c['id'], len(ml)) if ml is not None else 'NULL, 0'
        w('\t{ 0x%04x, "%s", "%04X", methods_%04x, %d, %s },' % (c['id'], c['name'], c['id'], c['id'],
                                                              len(c['methods']), mesa))
    w('};')
    w('const size_t nvm_pb_nclasses = sizeof(nvm_pb_classes) / sizeof(nvm_pb_classes[0]);')
    w('/* clang-format on */')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('headers', help='directory of NVIDIA class headers (cl*.h)')
    ap.add_argument('-o', '--output', default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                           '..', '..', 'src', 'pushbuf', 'classes_gen.c'))
    ap.add_argument('--check', action='store_true', help='compare with the output file instead of writing it')
    ap.add_argument('--report', action='store_true', help='print inferred array sizes and dropped defines')
    args = ap.parse_args()

    files = {}
    for root, _, names in os.walk(args.headers):
        for n in names:
            m = re.fullmatch(r'cl([0-9a-fA-F]{4})\.h', n)
            if m:
                files[int(m.group(1), 16)] = os.path.join(root, n)
    if not files:
        sys.exit('%s: no class headers (cl????.h) found' % args.headers)

    report = []
    t = Tables()
    classes = []
    derived = {cid: derived_defines(files[base], base, cid, cname, changes)
               for cid, (base, cname, changes) in DERIVED.items() if cid not in files and base in files}
    for cid in sorted(set(files) | set(derived)):
        path = files.get(cid) or files[DERIVED[cid][0]]
        cname, methods = parse_class(path, cid, report, derived.get(cid))
        infer_counts(methods, report, '%04X' % cid, 0x2000 if cid < PRE_FERMI else 0x4000)
        seen = {}
        for m in sorted(methods, key=lambda m: m.addr):
            if m.addr in seen:
                report.append('%04X: %s at 0x%x duplicates %s: dropped' % (cid, m.name, m.addr, seen[m.addr]))
                continue
            seen[m.addr] = m.name
        methods = [m for m in sorted(methods, key=lambda m: m.addr) if seen.get(m.addr) == m.name]
        if not methods:
            report.append('%04X: no methods (the header describes only the channel): not in the tables' % cid)
            continue
        classes.append({'id': cid, 'name': cname or 'NV%04X' % cid, 'methods': [our_record(t, m) for m in methods],
                        'parsed': methods})

    # Mesa's view
    mesa = {}
    last_of_family = {}
    for tag in MESA_CLASSES:
        cid = int(tag, 16)
        if cid not in files:
            continue
        prev = last_of_family.get(cid & 0xff)
        mesa[cid] = MesaClass(cid, mesa_parse(files[cid], cid), prev)
        last_of_family[cid & 0xff] = mesa[cid]
    mesa_lists = {}
    for cid, mc in mesa.items():
        entries = []
        for addr in range(0, 0x4000, 4):
            r = mc.resolve(addr)
            if r is None:
                continue
            owner, m, i = r
            a0 = mesa_addr(m, 0)
            stride = (mesa_addr(m, 1) - a0) if m.is_array else 0
            if i == 0:
                entries.append((mesa_record(t, m, a0, stride), owner))
        # array elements other than 0 are found from element 0's record
        mesa_lists[cid] = sorted(entries, key=lambda e: t.records[e[0]][2])

    text = emit(classes, t, mesa_lists, [])
    if args.report:
        print('\n'.join(report))
    if args.check:
        try:
            with open(args.output, encoding='utf-8') as f:
                old = f.read()
        except OSError as e:
            sys.exit('%s: %s' % (args.output, e))
        if old != text:
            print('%s differs from what %s generates' % (args.output, sys.argv[0]))
            sys.exit(1)
        print('%s is up to date' % args.output)
        return
    with open(args.output, 'w', encoding='utf-8') as f:
        f.write(text)


if __name__ == '__main__':
    main()
