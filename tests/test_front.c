#define _DEFAULT_SOURCE   /* unlink */
/* The front end: every file of the malformed corpus fails with exit status
 * 2 and the exact "file:line:col: error: ..." its last line names; and the
 * subset's constructs compile to the KIR they should. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "front.h"
#include "prov.h"
#include "simt.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  size_t r = fread(b, 1, (size_t)n, f);
  b[r] = 0;
  fclose(f);
  return b;
}

START_TEST(malformed_corpus) {
  const char *dir = src_path("tests/malformed");
  char dirbuf[4096];
  snprintf(dirbuf, sizeof dirbuf, "%s", dir);
  char **names;
  int n = list_cu_files(dirbuf, &names);
  ck_assert_int_ge(n, 40);
  int failures = 0;
  for (int k = 0; k < n; k++) {
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dirbuf, names[k]);
    char *text = slurp(path);
    char *exp = strstr(text, "// expect: ");
    ck_assert_msg(exp != NULL, "%s has no '// expect:' line", names[k]);
    exp += strlen("// expect: ");
    char *nl = strchr(exp, '\n');
    if (nl) *nl = 0;
    char want[16384];
    if (!strncmp(exp, "error:", 6)) snprintf(want, sizeof want, "%s: %s", path, exp);
    else snprintf(want, sizeof want, "%s:%s", path, exp);
    gr_context *ctx = gr_context_create(NULL);
    int rc;
    if (!strncmp(names[k], "directive_", 10)) {
      gr_script *s = NULL;
      rc = gr_script_load(ctx, path, NULL, 0, &s);
      if (rc == GR_OK) { rc = gr_script_run(s); gr_script_free(s); }
    } else {
      gr_module *m;
      rc = gr_module_load(ctx, path, NULL, 0, &m);
    }
    const char *msg = gr_error(ctx);
    if (rc != GR_EINPUT || strncmp(msg, want, strlen(want))) {
      fprintf(stderr, "%s: rc=%d\n  got:  %s\n  want: %s...\n", names[k], rc, msg, want);
      failures++;
    }
    gr_context_destroy(ctx);
    free(text);
    free(names[k]);
  }
  free(names);
  ck_assert_int_eq(failures, 0);
}
END_TEST

START_TEST(defines_reach_the_preprocessor) {
  const char *path = src_path("tests/data/knob.cu");
  int32_t vals[2];
  for (int k = 0; k < 2; k++) {
    gr_context *ctx = gr_context_create(NULL);
    gr_module *m;
    const char *defs[] = {"KNOB=41"};
    ck_assert_int_eq(gr_module_load(ctx, path, defs, k, &m), GR_OK);
    gr_ptr b;
    gr_malloc(ctx, 4, "o", &b);
    gr_arg a = gr_arg_ptr(b);
    ck_assert_int_eq(gr_launch(m, "k", dim1(1), dim1(1), 0, &a, 1), GR_OK);
    gr_memcpy_dtoh(ctx, &vals[k], b, 4);
    gr_context_destroy(ctx);
  }
  ck_assert_int_eq(vals[0], 7);
  ck_assert_int_eq(vals[1], 42);
}
END_TEST

START_TEST(ir_keeps_source_positions_and_reconvergence) {
  const char *src =
    "__global__ void k(int *o) {\n"
    "  int t = threadIdx.x;\n"
    "  if (t < 4)\n"
    "    o[t] = 1;\n"
    "  else\n"
    "    o[t] = 2;\n"
    "  __syncthreads();\n"
    "}\n";
  gr_context *ctx = gr_context_create(NULL);
  gr_module *m;
  ck_assert_int_eq(gr_module_load_source(ctx, "ir.cu", src, strlen(src), &m), GR_OK);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  gr_module_print_ir(m, f);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, ".kernel k"));
  ck_assert_ptr_nonnull(strstr(buf, "bar.sync"));
  ck_assert_ptr_nonnull(strstr(buf, "; 7:3"));
  /* the if's branch reconverges at the barrier's block: find "reconverge at N" and N's line */
  char *br = strstr(buf, "brf");
  ck_assert_ptr_nonnull(br);
  int target = -1, reconv = -1;
  ck_assert_int_eq(sscanf(strchr(br, ',') + 1, " %d ; reconverge at %d", &target, &reconv), 2);
  char key[32];
  snprintf(key, sizeof key, "\n%5d  ", reconv);
  char *line = strstr(buf, key);
  ck_assert_ptr_nonnull(line);
  ck_assert_ptr_nonnull(strstr(line + 1, "bar.sync"));
  ck_assert_int_lt(strstr(line + 1, "bar.sync") - line, 80);
  free(buf);
  gr_context_destroy(ctx);
}
END_TEST

START_TEST(host_code_is_skipped_like_nvcc_device_pass) {
  const char *src =
    "int host_helper(int x) { return x * 2; }\n"
    "__host__ __device__ int both(int x) { return x + 1; }\n"
    "__global__ void k(int *o) { o[0] = both(41); }\n"
    "int main(void) { return host_helper(3); }\n";
  uint32_t o[1];
  ck_assert_int_eq(run_out(src, "k", 1, 1, o, 1, NULL, NULL), GR_OK);
  ck_assert_int_eq(o[0], 42);
}
END_TEST

/* The PTX text compiled (named name in messages); the test fails where it
 * does not compile.  The caller frees it (kir_module_free). */
static kir_module *compile_ptx_text(const char *name, const char *ptx) {
  char err[512];
  kir_module *m = ptx_compile(name, ptx, strlen(ptx), NULL, NULL, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  return m;
}

/* The PTX front end: a branch reconverges at its immediate post-dominator
 * (the join of an if/else laid out as nvcc lays it out), whatever the order
 * of the blocks; a guarded store is branched around. */
START_TEST(ptx_reconverges_at_the_postdominator) {
  const char *ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [k_param_0];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tsetp.lt.u32 %p1, %r1, 4;\n"
    "\t@%p1 bra $A;\n"
    "\tmov.u32 %r2, 2;\n"
    "\tbra.uni $J;\n"
    "$A:\n"
    "\tmov.u32 %r2, 1;\n"
    "$J:\n"
    "\tbar.sync 0;\n"
    "\t@%p1 st.global.u32 [%rd1], %r2;\n"
    "\tret;\n}\n";
  kir_module *m = compile_ptx_text("t.ptx", ptx);
  ck_assert_int_eq(m->nfuncs, 1);
  const kir_func *f = m->funcs[0];
  int bar = -1, brt = -1, guard = -1;
  for (int i = 0; i < f->ncode; i++) {
    if (f->code[i].op == OP_BAR) bar = i;
    if (f->code[i].op == OP_BRT && brt < 0) brt = i;
    if (f->code[i].op == OP_BRF) guard = i;
  }
  ck_assert_int_ge(bar, 0);
  ck_assert_int_ge(brt, 0);
  ck_assert_int_eq(f->code[brt].c, bar);       /* the if/else joins at the barrier */
  ck_assert_int_ge(guard, 0);
  ck_assert_int_eq(f->code[guard].c, f->code[guard].a);   /* the guarded store: around it, and back */
  ck_assert_int_eq(f->code[f->code[guard].a].op, OP_EXIT);
  ck_assert_int_eq(f->pos[bar].line, 18);                 /* no .loc: the PTX line */
  kir_module_free(m);
}
END_TEST

/* The run-ahead's plan reads a binary op's b as one value where its
 * register holds one for the launch: written once, by a constant or a
 * scalar parameter, in the entry's straight line before the op.  The hash
 * loop's constants qualify (six of its eight operations, values as
 * written); a register written after the first branch does not, nor one
 * written twice. */
START_TEST(run_ahead_plan_reads_launch_constants) {
  const char *src =
    "__global__ void k(unsigned *out, int iters, unsigned s) {\n"
    "  unsigned t = threadIdx.x, x = t, y = t;\n"
    "  for (int i = 0; i < iters; i++) { x = x * 1664525u + 1013904223u; y = y * 31u + (x & 0xffu) + s; }\n"
    "  out[t] = x ^ y;\n"
    "}\n";
  char err[512];
  kir_module *m = front_compile("k.cu", src, strlen(src), 0, NULL, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  const kir_func *f = m->funcs[0];
  uint64_t args[3] = {0, 256, 77};
  simt_plan *p = simt_plan_new(f, args, NULL);
  int kb = 0, mul_a = 0, add_s = 0;
  for (int pc = 0; pc < f->ncode; pc++) {
    if (!p->kb[pc]) continue;
    kb++;
    ck_assert(f->code[pc].op < OP_NEG_I32);   /* binary ops only */
    if (f->code[pc].op == OP_MUL_U32 && p->kv[pc] == 1664525u) mul_a = 1;
    if (f->code[pc].op == OP_ADD_U32 && p->kv[pc] == 77) add_s = 1;   /* the parameter's value for this launch */
  }
  ck_assert(mul_a && add_s);
  ck_assert_int_ge(kb, 5);
  simt_plan_free(p);
  kir_module_free(m);
  /* each condition alone: r0 qualifies; r3 is written after the first
   * branch (a lane that branched around it reads 0 at pc 6); r5's last
   * write is a constant, but not its only one */
  kir_ins code[] = {
    {.op = OP_CONST, .dst = 0, .a = -1, .b = -1, .c = -1, .imm = 5},
    {.op = OP_SREG, .dst = 1, .a = -1, .b = -1, .c = -1, .imm = SR_TID_X},
    {.op = OP_ADD_U32, .dst = 5, .a = 1, .b = 0, .c = -1},           /* 2: b = r0 */
    {.op = OP_CONST, .dst = 5, .a = -1, .b = -1, .c = -1, .imm = 9},
    {.op = OP_BRF, .dst = -1, .a = 6, .b = 1, .c = 6},
    {.op = OP_CONST, .dst = 3, .a = -1, .b = -1, .c = -1, .imm = 7},
    {.op = OP_ADD_U32, .dst = 2, .a = 1, .b = 3, .c = -1},           /* 6: b = r3 */
    {.op = OP_XOR_U32, .dst = 4, .a = 1, .b = 5, .c = -1},           /* 7: b = r5 */
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
  };
  kir_func hand = {.name = "hand", .code = code, .ncode = (int)(sizeof code / sizeof code[0]), .nregs = 6};
  p = simt_plan_new(&hand, args, NULL);
  ck_assert_int_eq(p->kb[2], 1);
  ck_assert_uint_eq(p->kv[2], 5);
  ck_assert_int_eq(p->kb[6], 0);
  ck_assert_int_eq(p->kb[7], 0);
  simt_plan_free(p);
}
END_TEST

/* simt.h's quiet: a load is AHEAD_LOAD only where no store, atomic or
 * struct parameter's copy is reachable before a barrier; a barrier ends
 * the search, a loop's back edge does not. */
START_TEST(run_ahead_plan_quiet_loads) {
  kir_ins code[] = {
    {.op = OP_SREG, .dst = 0, .a = -1, .b = -1, .c = -1, .imm = SR_TID_X},
    {.op = OP_LD, .dst = 1, .a = 0, .b = -1, .c = -1, .flags = SK_U32},        /* 1: a barrier before any store */
    {.op = OP_BAR, .dst = -1, .a = -1, .b = -1, .c = -1, .imm = BAR_SYNC},
    {.op = OP_LD, .dst = 1, .a = 0, .b = -1, .c = -1, .flags = SK_U32},        /* 3: the loop reaches the store */
    {.op = OP_BRF, .dst = -1, .a = 7, .b = 1, .c = 7},
    {.op = OP_LD, .dst = 2, .a = 0, .b = -1, .c = -1, .flags = SK_U32},        /* 5: and through the back edge */
    {.op = OP_JMP, .dst = -1, .a = 3, .b = -1, .c = -1},
    {.op = OP_ST, .dst = -1, .a = 0, .b = 1, .c = -1, .flags = SK_U32},        /* 7 */
    {.op = OP_BAR, .dst = -1, .a = -1, .b = -1, .c = -1, .imm = BAR_SYNC},
    {.op = OP_LD, .dst = 1, .a = 0, .b = -1, .c = -1, .flags = SK_U32},        /* 9: only an exit after it */
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
    {.op = OP_LD, .dst = 1, .a = 0, .b = -1, .c = -1, .flags = SK_U32},        /* 11: an atomic after it */
    {.op = OP_ATOM, .dst = 2, .a = 0, .b = 1, .c = -1, .flags = SK_U32},
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
  };
  kir_func hand = {.name = "hand", .code = code, .ncode = (int)(sizeof code / sizeof code[0]), .nregs = 3};
  simt_plan *p = simt_plan_new(&hand, NULL, NULL);
  ck_assert_int_eq(p->marks[1], AHEAD_LOAD);
  ck_assert_int_eq(p->marks[3], 0);
  ck_assert_int_eq(p->marks[5], 0);
  ck_assert_int_eq(p->marks[9], AHEAD_LOAD);
  ck_assert_int_eq(p->marks[11], 0);
  ck_assert(p->quiet[2] && p->quiet[8] && !p->quiet[6] && !p->quiet[7] && !p->quiet[12]);
  ck_assert_int_eq(p->marks[0], 1);   /* a run of arithmetic ends at a load */
  ck_assert_int_eq(p->marks[7], 0);   /* a store of no class */
  simt_plan_free(p);
  /* a load of an allocation nothing writes (prov.h) runs ahead wherever it
   * is, and a store to one nothing reads (the launch decides whether it
   * performs it: access_ahead_store); no other access does */
  uint8_t cls[14] = {0};
  cls[3] = PROV_RO;
  cls[5] = PROV_WO;
  cls[7] = PROV_WO;
  p = simt_plan_new(&hand, NULL, cls);
  ck_assert_int_eq(p->marks[3], AHEAD_LOAD);
  ck_assert_int_eq(p->marks[5], 0);
  ck_assert_int_eq(p->marks[7], AHEAD_STORE);
  ck_assert_int_eq(p->marks[6], AHEAD_BRANCH);
  ck_assert_int_eq(p->marks[1], AHEAD_LOAD);
  simt_plan_free(p);
}
END_TEST

/* simt.h's fused: a comparison whose result only the branch after it
 * reads, as far as the straight lines from the branch show */
START_TEST(run_ahead_plan_fused_compares) {
  kir_ins code[] = {
    {.op = OP_SREG, .dst = 0, .a = -1, .b = -1, .c = -1, .imm = SR_TID_X},
    {.op = OP_CONST, .dst = 1, .a = -1, .b = -1, .c = -1, .imm = 4},
    {.op = OP_LT_I32, .dst = 2, .a = 0, .b = 1, .c = -1},                       /* 2: fused: both sides write r2 first */
    {.op = OP_BRF, .dst = -1, .a = 6, .b = 2, .c = 6},
    {.op = OP_ADD_I32, .dst = 2, .a = 0, .b = 1, .c = -1},
    {.op = OP_JMP, .dst = -1, .a = 7, .b = -1, .c = -1},
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
    {.op = OP_GE_U32, .dst = 2, .a = 0, .b = 1, .c = -1},                       /* 7: r2 read after the branch */
    {.op = OP_BRT, .dst = -1, .a = 10, .b = 2, .c = 10},
    {.op = OP_ADD_I32, .dst = 1, .a = 2, .b = 1, .c = -1},
    {.op = OP_EQ_I32, .dst = 2, .a = 0, .b = 1, .c = -1},                       /* 10: a branch on another register */
    {.op = OP_BRT, .dst = -1, .a = 13, .b = 1, .c = 13},
    {.op = OP_NE_I32, .dst = 2, .a = 0, .b = 1, .c = -1},                       /* 12: no branch after it */
    {.op = OP_GT_F32, .dst = 2, .a = 0, .b = 1, .c = -1},                       /* 13: a back edge; the loop reads r2 */
    {.op = OP_BRT, .dst = -1, .a = 12, .b = 2, .c = 15},
    {.op = OP_EXIT, .dst = -1, .a = -1, .b = -1, .c = -1},
  };
  kir_func hand = {.name = "hand", .code = code, .ncode = (int)(sizeof code / sizeof code[0]), .nregs = 3};
  simt_plan *p = simt_plan_new(&hand, NULL, NULL);
  ck_assert_int_eq(p->fused[2], 1);
  ck_assert_int_eq(p->fused[7], 0);
  ck_assert_int_eq(p->fused[10], 0);
  ck_assert_int_eq(p->fused[12], 0);
  ck_assert_int_eq(p->fused[13], 1);   /* 12 writes r2 before the loop reads it: dead */
  ck_assert_int_eq(p->fused[0] | p->fused[1] | p->fused[3] | p->fused[4], 0);
  simt_plan_free(p);
  code[12].op = OP_ADD_I32;            /* now the loop's head reads r2 */
  code[12].a = 2;
  p = simt_plan_new(&hand, NULL, NULL);
  ck_assert_int_eq(p->fused[13], 0);
  simt_plan_free(p);
  /* a loop's test whose exit path goes around an outer loop before writing
   * the register: the livelock detector would hash it there */
  kir_ins nest[] = {
    {.op = OP_CONST, .dst = 0, .a = -1, .b = -1, .c = -1, .imm = 0},
    {.op = OP_LT_I32, .dst = 1, .a = 0, .b = 0, .c = -1},                       /* 1: the inner test */
    {.op = OP_BRF, .dst = -1, .a = 5, .b = 1, .c = 5},
    {.op = OP_ADD_I32, .dst = 1, .a = 0, .b = 0, .c = -1},
    {.op = OP_JMP, .dst = -1, .a = 1, .b = -1, .c = -1},
    {.op = OP_ADD_I32, .dst = 0, .a = 0, .b = 0, .c = -1},                      /* 5: the outer loop's step */
    {.op = OP_JMP, .dst = -1, .a = 1, .b = -1, .c = -1},
  };
  kir_func loops = {.name = "loops", .code = nest, .ncode = (int)(sizeof nest / sizeof nest[0]), .nregs = 2};
  p = simt_plan_new(&loops, NULL, NULL);
  ck_assert_int_eq(p->fused[1], 0);
  simt_plan_free(p);
  nest[5].dst = 1;                     /* the exit path writes it first */
  p = simt_plan_new(&loops, NULL, NULL);
  ck_assert_int_eq(p->fused[1], 1);
  simt_plan_free(p);
}
END_TEST

/* The cache's bound: past it the oldest text goes first, a text larger
 * than a quarter of it is not kept, and a key kept twice holds one copy. */
START_TEST(text_cache_drops_the_oldest) {
  static text_cache c = TEXT_CACHE_INIT(400);
  char text[64];
  memset(text, 'x', sizeof text);
  size_t n = 0;
  for (char k = 'a'; k <= 'f'; k++) text_cache_put(&c, &k, 1, text, 63);   /* 64 bytes each: six fit */
  ck_assert_uint_eq(c.bytes, 6 * 64);
  char g = 'g';
  text_cache_put(&c, &g, 1, text, 63);   /* the seventh pushes 'a' out */
  ck_assert_uint_eq(c.bytes, 6 * 64);
  char a = 'a', b = 'b';
  ck_assert_ptr_null(text_cache_get(&c, &a, 1, &n));
  char *t = text_cache_get(&c, &b, 1, &n);
  ck_assert_ptr_nonnull(t);
  ck_assert_uint_eq(n, 63);
  ck_assert_int_eq(t[63], 0);
  free(t);
  t = text_cache_get(&c, &g, 1, &n);
  ck_assert_ptr_nonnull(t);
  free(t);
  text_cache_put(&c, &g, 1, "other", 5);   /* kept already: the first stays */
  t = text_cache_get(&c, &g, 1, &n);
  ck_assert_uint_eq(n, 63);
  free(t);
  char big[128] = {0}, z = 'z';
  text_cache_put(&c, &z, 1, big, 101);   /* over a quarter of 400 */
  ck_assert_ptr_null(text_cache_get(&c, &z, 1, &n));
  ck_assert_uint_eq(c.bytes, 6 * 64);
}
END_TEST

/* The kernel in the file at path, run on one thread with the defines: its
 * out[0]. */
static int32_t run_file_defines(const char *path, const char *const *defines, int ndefines) {
  gr_context *ctx = gr_context_create(NULL);
  gr_module *mod;
  ck_assert_int_eq(gr_module_load(ctx, path, defines, ndefines, &mod), GR_OK);
  gr_ptr out;
  ck_assert_int_eq(gr_malloc(ctx, 4, "out", &out), GR_OK);
  gr_arg a = gr_arg_ptr(out);
  gr_dim3 one = {1, 1, 1};
  ck_assert_int_eq(gr_launch(mod, "k", one, one, 0, &a, 1), GR_OK);
  int32_t v = 0;
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, &v, out, 4), GR_OK);
  gr_context_destroy(ctx);
  return v;
}

/* The process keeps preprocessed texts (a table loads a file per cell and
 * seed), keyed by the file's contents and defines: a define, or a file
 * rewritten under the same name, gets its own text, and the same load
 * again the same bytes. */
START_TEST(preprocessing_is_kept_by_contents_and_defines) {
  const char *v1 = "#ifndef V\n#define V 1\n#endif\n__global__ void k(int *out) { out[0] = V; }\n";
  const char *v3 = "#ifndef V\n#define V 3\n#endif\n__global__ void k(int *out) { out[0] = V; }\n";
  const char *two[] = {"V=2"}, *four[] = {"V=4"};
  char path[] = "/tmp/gpurace-pp-XXXXXX.cu";
  temp_file(path, 3, v1);
  ck_assert_int_eq(run_file_defines(path, NULL, 0), 1);
  ck_assert_int_eq(run_file_defines(path, two, 1), 2);
  ck_assert_int_eq(run_file_defines(path, four, 1), 4);
  ck_assert_int_eq(run_file_defines(path, NULL, 0), 1);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(v3, f);
  fclose(f);
  ck_assert_int_eq(run_file_defines(path, NULL, 0), 3);
  ck_assert_int_eq(run_file_defines(path, two, 1), 2);
  char err[512];
  size_t n1 = 0, n2 = 0;
  char *a = source_preprocess(path, v3, strlen(v3), NULL, 0, NULL, NULL, 0, &n1, err, sizeof err);
  char *b = source_preprocess(path, v3, strlen(v3), NULL, 0, NULL, NULL, 0, &n2, err, sizeof err);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_ne(a, b);   /* each caller's own copy */
  ck_assert_uint_eq(n1, n2);
  ck_assert_int_eq(memcmp(a, b, n1), 0);
  ck_assert_int_eq(a[n1], 0);
  ck_assert_ptr_null(source_preprocess(path, v3, strlen(v3), NULL, 0, NULL, NULL, 8, &n1, err, sizeof err));   /* a smaller bound is its own key */
  free(a);
  free(b);
  unlink(path);
}
END_TEST

/* Runs the PTX text's kernel k(out) on grid x block threads (cfg: NULL
 * for the defaults), out's first n words into o. */
static void run_ptx_text(const char *ptx, const gr_config *cfg, unsigned grid, unsigned block, uint32_t *o, size_t n) {
  char path[] = "/tmp/gpurace-ptx-XXXXXX.ptx";
  temp_file(path, 4, ptx);
  gr_context *ctx = gr_context_create(cfg);
  gr_module *mod;
  ck_assert_int_eq(gr_module_load(ctx, path, NULL, 0, &mod), GR_OK);
  gr_ptr out;
  ck_assert_int_eq(gr_malloc(ctx, n * 4, "out", &out), GR_OK);
  gr_arg a = gr_arg_u64(out);   /* PTX has no pointer types: an extern "C" kernel's .u64 without its source */
  gr_dim3 g = {grid, 1, 1}, b = {block, 1, 1};
  ck_assert_int_eq(gr_launch(mod, "k", g, b, 0, &a, 1), GR_OK);
  ck_assert_int_eq(gr_memcpy_dtoh(ctx, o, out, n * 4), GR_OK);
  gr_context_destroy(ctx);
  unlink(path);
}

/* Register allocation: a chain of 64 virtual registers, each dead once the
 * next is computed, needs a handful of KIR registers, and still computes
 * the chain (run: 64 increments of tid); no copy is left of lowering's
 * temporaries. */
START_TEST(ptx_allocates_registers) {
  char ptx[8192];
  int n = snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_75\n.address_size 64\n"
                   ".visible .entry k(.param .u64 k_param_0)\n{\n\t.reg .b32 %%r<70>;\n\t.reg .b64 %%rd<4>;\n"
                   "\tld.param.u64 %%rd1, [k_param_0];\n\tmov.u32 %%r0, %%tid.x;\n");
  for (int k = 1; k <= 64; k++) n += snprintf(ptx + n, sizeof ptx - (size_t)n, "\tadd.s32 %%r%d, %%r%d, 1;\n", k, k - 1);
  n += snprintf(ptx + n, sizeof ptx - (size_t)n, "\tmul.wide.u32 %%rd2, %%r0, 4;\n\tadd.s64 %%rd3, %%rd1, %%rd2;\n"
                "\tst.global.u32 [%%rd3], %%r64;\n\tret;\n}\n");
  kir_module *m = compile_ptx_text("chain.ptx", ptx);
  ck_assert_int_le(m->funcs[0]->nregs, 8);
  /* the parameter's load and %tid.x go straight to their registers: no mov after them */
  for (int i = 0; i < m->funcs[0]->ncode; i++) ck_assert_int_ne(m->funcs[0]->code[i].op, OP_MOV);
  kir_module_free(m);
  uint32_t o[64];
  run_ptx_text(ptx, NULL, 1, 64, o, 64);
  for (int t = 0; t < 64; t++) ck_assert_uint_eq(o[t], (uint32_t)t + 64);
}
END_TEST

/* Registers start at 0 in every block, recycled slots included: the
 * registers a thread can read before writing (here %r3, which block b
 * writes in threads b and up only, and what a shuffle reads) are the ones
 * cleared, and a register every path writes first is not among them. */
START_TEST(ptx_registers_start_at_zero_in_every_block) {
  const char *ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "\t.reg .pred %p<3>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [k_param_0];\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, %ctaid.x;\n"
    "\tsetp.lt.u32 %p1, %r1, %r2;\n"
    "\t@%p1 bra $J;\n"
    "\tmov.u32 %r4, %ctaid.x;\n"
    "\tadd.s32 %r3, %r4, 100;\n"
    "$J:\n"
    "\tmov.u32 %r8, %laneid;\n"
    "\tshfl.sync.idx.b32 %r5, %r8, 3, 31, -1;\n"
    "\tmov.u32 %r6, %ctaid.x;\n"
    "\tmov.u32 %r7, %ntid.x;\n"
    "\tmul.lo.s32 %r6, %r6, %r7;\n"
    "\tadd.s32 %r6, %r6, %r1;\n"
    "\tmul.wide.u32 %rd2, %r6, 8;\n"
    "\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r3;\n"
    "\tst.global.u32 [%rd3+4], %r5;\n"
    "\tret;\n}\n";
  kir_module *m = compile_ptx_text("zero.ptx", ptx);
  const kir_func *f = m->funcs[0];
  int n, *first = kir_regs_read_first(f, &n), param = -1, shfl = -1, stored = -1;
  for (int i = 0; i < f->ncode; i++) {
    if (f->code[i].op == OP_PARAM) param = f->code[i].dst;
    if (f->code[i].op == OP_SHFL) shfl = f->code[i].a;
    if (f->code[i].op == OP_ST && stored < 0) stored = f->code[i].b;
  }
  int has_param = 0, has_shfl = 0, has_stored = 0;
  for (int j = 0; j < n; j++) {
    if (j) ck_assert_int_lt(first[j - 1], first[j]);
    has_param |= first[j] == param, has_shfl |= first[j] == shfl, has_stored |= first[j] == stored;
  }
  ck_assert_int_ge(param, 0);
  ck_assert(!has_param);
  ck_assert(has_shfl);
  ck_assert(has_stored);
  free(first);
  kir_module_free(m);
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.sms = 1;
  cfg.max_blocks_per_sm = 2;   /* 64 blocks through two slots */
  static uint32_t o[64 * 64 * 2];
  run_ptx_text(ptx, &cfg, 64, 64, o, 64 * 64 * 2);
  for (int blk = 0; blk < 64; blk++)
    for (int t = 0; t < 64; t++) {
      ck_assert_uint_eq(o[(blk * 64 + t) * 2], (t >= blk ? (uint32_t)blk + 100 : 0));
      ck_assert_uint_eq(o[(blk * 64 + t) * 2 + 1], 3);
    }
}
END_TEST

/* Unsigned division and remainder by a power of two read a 32-bit
 * register's low bits, whatever its upper ones hold (here tid - 8, written
 * by a signed add, sign-extended in the register for tid < 8). */
START_TEST(ptx_unsigned_division_reads_the_low_bits) {
  const char *ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<5>;\n"
    "\tld.param.u64 %rd1, [k_param_0];\n"
    "\tmov.u32 %r0, %tid.x;\n"
    "\tadd.s32 %r1, %r0, -8;\n"
    "\tdiv.u32 %r2, %r1, 4;\n"
    "\trem.u32 %r3, %r1, 4;\n"
    "\tmul.wide.u32 %rd2, %r0, 8;\n"
    "\tadd.s64 %rd3, %rd1, %rd2;\n"
    "\tst.global.u32 [%rd3], %r2;\n"
    "\tst.global.u32 [%rd3+4], %r3;\n"
    "\tret;\n}\n";
  static uint32_t o[64];
  run_ptx_text(ptx, NULL, 1, 32, o, 64);
  for (uint32_t t = 0; t < 32; t++) {
    ck_assert_uint_eq(o[2 * t], (t - 8u) / 4u);
    ck_assert_uint_eq(o[2 * t + 1], (t - 8u) % 4u);
  }
}
END_TEST

/* Kernel names as C++ names them, found by the name directives use. */
START_TEST(ptx_names_kernels_as_cxx_does) {
  char *d = ptx_demangle("_Z9block_sumIiLi256EEvPKT_PS0_");
  ck_assert_ptr_nonnull(d);
  ck_assert_str_eq(d, "void block_sum<int, 256>(int const*, int*)");
  free(d);
  ck_assert_ptr_null(ptx_demangle("plain_c_name"));
  const char *ptx =
    ".version 8.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry _Z9block_sumIiLi256EEvPKT_PS0_(.param .u64 a, .param .u64 b)\n{\n\tret;\n}\n"
    ".visible .entry _Z9block_sumIfLi128EEvPKT_PS0_(.param .u64 a, .param .u64 b)\n{\n\tret;\n}\n"
    ".visible .entry _Z4lonePi(.param .u64 a)\n{\n\tret;\n}\n";
  kir_module *m = compile_ptx_text("n.ptx", ptx);
  ck_assert_str_eq(m->funcs[0]->name, "block_sum<int, 256>");
  ck_assert_ptr_eq(kir_find(m, "block_sum<int,256>"), m->funcs[0]);
  ck_assert_ptr_eq(kir_find(m, "block_sum<float, 128>"), m->funcs[1]);
  ck_assert_ptr_null(kir_find(m, "block_sum"));   /* two instances: the name alone is ambiguous */
  ck_assert_ptr_eq(kir_find(m, "lone"), m->funcs[2]);
  ck_assert_ptr_eq(kir_find(m, "_Z4lonePi"), m->funcs[2]);
  ck_assert_int_eq(m->funcs[2]->params[0].sk, SK_PTR);   /* int* in the signature */
  ck_assert_int_eq(m->funcs[2]->params[0].pointee, SK_I32);
  kir_module_free(m);
}
END_TEST

/* util.h's disk_includes_stay: what a key of header trees may vouch for */
START_TEST(includes_that_stay_in_their_trees) {
  static const char *const yes[] = {
    "#include <cub/block/block_load.cuh>\n",
    "  #  include \"sub/./v.h\"\nint x;\n",
    "#include_next <a/b/../c.h>\n",
    "#define INC 1 /* include nothing */\n#if 0\n#endif\n",
    "x = 1; // #include \"../y.h\" is in a comment, not a directive\n",
    "", NULL};
  static const char *const no[] = {
    "#include \"../common/helper.h\"\n",   /* climbs out of the file's folder */
    "#include <a/../../b.h>\n",
    "#include </usr/include/stdio.h>\n",   /* absolute */
    "#include HEADER\n",                    /* computed */
    "#include \\\n\"../x.h\"\n",             /* a backslash-newline inside the directive */
    "# /* */ include \"x.h\"\n",            /* a directive this does not read */
    "#if __has_include(<../x.h>)\n#endif\n",
    "const char *d = __DATE__;\n",
    "#include \"x.h\n",                      /* unterminated */
    NULL};
  for (int k = 0; yes[k]; k++) ck_assert_msg(disk_includes_stay(yes[k], strlen(yes[k])), "should stay: %s", yes[k]);
  for (int k = 0; no[k]; k++) ck_assert_msg(!disk_includes_stay(no[k], strlen(no[k])), "should not: %s", no[k]);
}
END_TEST

static uint64_t tree_hash(const char *root, int scan, size_t budget, int *rc) {
  bytes k = {0};
  *rc = disk_tree_key(&k, root, scan, &budget);
  uint64_t h = hash_fnv(HASH_FNV_SEED, k.p, k.len);
  free(k.p);
  return h;
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

/* util.h's disk_tree_key: any change a compiler could see changes the key;
 * a tree it cannot vouch for is -1 */
START_TEST(header_trees_are_keyed_by_every_entry) {
  char root[] = "/tmp/gr-tree-XXXXXX", p[256], q[256];
  ck_assert_ptr_nonnull(mkdtemp(root));
  snprintf(p, sizeof p, "%s/sub", root);
  ck_assert_int_eq(mkdir(p, 0755), 0);
  snprintf(p, sizeof p, "%s/sub/v.h", root);
  write_text(p, "#define V 10\n");
  int rc;
  uint64_t h0 = tree_hash(root, 1, 100, &rc);
  ck_assert_int_eq(rc, 0);
  ck_assert_uint_eq(tree_hash(root, 1, 100, &rc), h0);   /* the same tree, the same key */
  write_text(p, "#define V 20\n");                         /* the same size, other bytes */
  uint64_t h1 = tree_hash(root, 1, 100, &rc);
  ck_assert_int_eq(rc, 0);
  ck_assert_uint_ne(h1, h0);
  snprintf(q, sizeof q, "%s/sub/w.h", root);                /* a new file in a folder below */
  write_text(q, "\n");
  uint64_t h2 = tree_hash(root, 1, 100, &rc);
  ck_assert_uint_ne(h2, h1);
  tree_hash(root, 1, 2, &rc);                               /* three entries: over a budget of two */
  ck_assert_int_eq(rc, -1);
  write_text(q, "#include \"../../outside.h\"\n");          /* a header that leaves the tree */
  tree_hash(root, 1, 100, &rc);
  ck_assert_int_eq(rc, -1);
  tree_hash(root, 0, 100, &rc);                             /* unscanned (an installed toolkit's): vouched for */
  ck_assert_int_eq(rc, 0);
  unlink(q);
  ck_assert_int_eq(symlink("/etc", q), 0);                  /* a link out of the tree */
  tree_hash(root, 0, 100, &rc);
  ck_assert_int_eq(rc, -1);
  unlink(q);
  ck_assert_int_eq(symlink("v.h", q), 0);                   /* a link inside it: taken unscanned */
  tree_hash(root, 0, 100, &rc);
  ck_assert_int_eq(rc, 0);
  tree_hash(root, 1, 100, &rc);                             /* not where .. is counted by names */
  ck_assert_int_eq(rc, -1);
  unlink(q);
  unlink(p);
  snprintf(p, sizeof p, "%s/sub", root);
  rmdir(p);
  rmdir(root);
  tree_hash(root, 1, 100, &rc);                             /* no tree */
  ck_assert_int_eq(rc, -1);
}
END_TEST

Suite *front_suite(void) {
  Suite *s = suite_create("front");
  TCase *tc = tcase_create("front");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, malformed_corpus);
  tcase_add_test(tc, defines_reach_the_preprocessor);
  tcase_add_test(tc, ir_keeps_source_positions_and_reconvergence);
  tcase_add_test(tc, host_code_is_skipped_like_nvcc_device_pass);
  tcase_add_test(tc, ptx_reconverges_at_the_postdominator);
  tcase_add_test(tc, ptx_names_kernels_as_cxx_does);
  tcase_add_test(tc, ptx_allocates_registers);
  tcase_add_test(tc, ptx_registers_start_at_zero_in_every_block);
  tcase_add_test(tc, ptx_unsigned_division_reads_the_low_bits);
  tcase_add_test(tc, run_ahead_plan_reads_launch_constants);
  tcase_add_test(tc, run_ahead_plan_quiet_loads);
  tcase_add_test(tc, run_ahead_plan_fused_compares);
  tcase_add_test(tc, preprocessing_is_kept_by_contents_and_defines);
  tcase_add_test(tc, text_cache_drops_the_oldest);
  tcase_add_test(tc, includes_that_stay_in_their_trees);
  tcase_add_test(tc, header_trees_are_keyed_by_every_entry);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(front_suite()); }
