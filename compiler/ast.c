/* ast.c: text dump of the syntax tree (golden tests, `sremc dump --stage
 * ast`) and small shared helpers. The dump is stable: no pointers, source
 * order, fully parenthesized expressions. */
#include "ast.h"

#include <inttypes.h>
#include <string.h>

int64_t ast_unit_ns(const char *unit)
{
    static const struct { const char *name; int64_t ns; } units[] = {
        {"ns", 1},
        {"us", 1000},
        {"ms", 1000000},
        {"s", 1000000000},
        {"min", INT64_C(60000000000)},
        {"h", INT64_C(3600000000000)},
        {"d", INT64_C(86400000000000)},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].name) == 0)
            return units[i].ns;
    return 0;
}

static const char *const unit_names[] = {"ns", "us", "ms", "s"};

static void indent(FILE *out, int depth)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
}

/* Identifiers print bare (unless quoted: a string attribute's literal);
 * anything else (enum values given as strings with spaces) prints as a C
 * string. */
static void dump_text(const char *name, bool quoted, FILE *out)
{
    bool plain = !quoted && (name[0] < '0' || name[0] > '9') && name[0] != '\0';
    for (const char *p = name; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9')))
            plain = false;
    if (plain) {
        fputs(name, out);
        return;
    }
    fputc('"', out);
    for (const char *p = name; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if ((unsigned char)*p < 0x20)
                fprintf(out, "\\x%02x", (unsigned char)*p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void dump_name(const char *name, FILE *out) { dump_text(name, false, out); }

static void dump_number(const AstNumber *n, FILE *out)
{
    fprintf(out, "%s%s", n->negative ? "-" : "", n->text ? n->text : "?");
}

static const char *const op_names[] = {"==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"};

void ast_dump_expr(const AstExpr *e, FILE *out)
{
    switch (e->kind) {
    case EX_TRUE: fputs("true", out); break;
    case EX_FALSE: fputs("false", out); break;
    case EX_NUMBER: dump_number(&e->num, out); break;
    case EX_STRING: fputc('"', out); fputs(e->str, out); fputc('"', out); break;
    case EX_NAME: fputs(e->str, out); break;
    case EX_ATTR: fputs(e->attr ? e->attr->name : e->str, out); break;
    case EX_REGATTR: fprintf(out, "%s.%s", e->str, e->field); break;
    case EX_ENUMVAL:
        if (e->type.enum_attr && e->enum_value >= 0 && e->enum_value < e->type.enum_attr->nvalues)
            dump_name(e->type.enum_attr->values[e->enum_value].name, out);
        else
            dump_text(e->str, e->type.kind == TY_STR, out);
        break;
    case EX_CALL:
        fprintf(out, "%s(", e->str);
        for (int i = 0; i < e->nargs; i++) {
            if (i)
                fputs(", ", out);
            ast_dump_expr(e->args[i], out);
        }
        fputc(')', out);
        break;
    case EX_NOT: fputs("!", out); ast_dump_expr(e->lhs, out); break;
    case EX_NEG: fputs("-", out); ast_dump_expr(e->lhs, out); break;
    case EX_AND:
    case EX_OR:
    case EX_CMP:
    case EX_ARITH:
        fputc('(', out);
        ast_dump_expr(e->lhs, out);
        fprintf(out, " %s ",
                e->kind == EX_AND ? "&&" : e->kind == EX_OR ? "||" : op_names[e->op]);
        ast_dump_expr(e->rhs, out);
        fputc(')', out);
        break;
    }
}

static void dump_window(const AstWindow *w, const AstSchema *schema, FILE *out)
{
    if (w->kind == WIN_NONE)
        return;
    fputs(" within ", out);
    dump_number(&w->amount, out);
    if (w->kind == WIN_EVENTS) {
        fputs(" events", out);
        return;
    }
    fprintf(out, " %s", w->unit_name);
    if (schema && schema->ts_attr >= 0 && w->value > 0)
        fprintf(out, " [%" PRId64 " %s]", w->value, unit_names[schema->attrs[schema->ts_attr].unit]);
}

static void dump_header(const AstHeader *h, const AstSchema *schema, bool pattern, FILE *out)
{
    static const char *const policies[] = {"strict", "stnm", "stam"};
    static const char *const freqs[] = {"nonoverlapped", "distinct"};
    fprintf(out, " on %s", h->schema_name);
    for (int k = 0; k < h->npartition && k <= AST_PARTITION_MAX && h->partition[k]; k++)
        fprintf(out, "%s%s", k ? ", " : " partition by ", h->partition[k]);
    dump_window(&h->window, schema, out);
    if (pattern)
        fprintf(out, " policy %s", policies[h->policy]);
    else
        fprintf(out, " frequency %s", freqs[h->freq]);
}

static void dump_regex(const AstRegex *r, int depth, FILE *out)
{
    static const char *const kinds[] = {"atom", "seq", "alt", "and", "not", "star", "plus", "opt", "repeat"};
    indent(out, depth);
    fputs(kinds[r->kind], out);
    if (r->kind == RX_ATOM && r->position > 0)
        fprintf(out, " %d", r->position);
    if (r->label)
        fprintf(out, " %s:", r->label);
    switch (r->kind) {
    case RX_ATOM:
        if (r->atom == ATOM_ANY) {
            fputs(" _", out);
        } else if (r->atom == ATOM_VALUE) {
            fputs(" ", out);
            dump_name(r->value, out);
            if (r->cond) {
                fputs(" = [", out);
                ast_dump_expr(r->cond, out);
                fputc(']', out);
            }
        } else {
            fputs(" [", out);
            if (r->cond)
                ast_dump_expr(r->cond, out);
            fputc(']', out);
        }
        break;
    case RX_REPEAT:
        fputs(" {", out);
        dump_number(&r->rep_min, out);
        if (!r->rep_has_max) {
            fputs(",", out);
        } else if (r->rep_max.u != r->rep_min.u || r->rep_max.negative != r->rep_min.negative ||
                   (r->rep_max.text && r->rep_min.text && strcmp(r->rep_max.text, r->rep_min.text))) {
            fputs(",", out);
            dump_number(&r->rep_max, out);
        }
        fputs("}", out);
        break;
    default:
        break;
    }
    fputc('\n', out);
    for (int i = 0; i < r->nkids; i++)
        dump_regex(r->kids[i], depth + 1, out);
}

static void dump_schema(const AstSchema *s, FILE *out)
{
    static const char *const kinds[] = {"int", "float", "bool", "enum", "timestamp", "string"};
    fprintf(out, "schema %s\n", s->name);
    for (int i = 0; i < s->nattrs; i++) {
        const AstAttr *a = &s->attrs[i];
        fprintf(out, "  attr %s: %s%s", a->name, kinds[a->kind], a->single ? "32" : "");
        if (a->kind == ATTR_TIMESTAMP)
            fprintf(out, "(%s)", a->unit_name ? a->unit_name : "s");
        if (a->kind == ATTR_ENUM) {
            fputs(" {", out);
            for (int v = 0; v < a->nvalues; v++) {
                fputs(v ? ", " : "", out);
                dump_name(a->values[v].name, out);
            }
            fputs("}", out);
        }
        fputc('\n', out);
    }
}

static const char *type_name(TypeKind t)
{
    switch (t) {
    case TY_BOOL: return "bool";
    case TY_INT: return "int";
    case TY_FLOAT: return "float";
    default: return "?";
    }
}

static void dump_extern(const AstExtern *x, FILE *out)
{
    fprintf(out, "extern %s %s(", type_name(x->ret), x->name);
    for (int i = 0; i < x->nparams; i++)
        fprintf(out, "%s%s", i ? ", " : "", type_name(x->params[i]));
    fputs(")\n", out);
}

static void dump_forecast(const AstPattern *pt, FILE *out);

static void dump_pattern(const AstPattern *pt, FILE *out)
{
    fprintf(out, "pattern %s", pt->name);
    dump_header(&pt->hdr, pt->schema, true, out);
    fputc('\n', out);
    if (pt->nregs) {
        fputs("  registers", out);
        for (int i = 0; i < pt->nregs; i++)
            fprintf(out, " %s", pt->regs[i].name);
        fputc('\n', out);
    }
    if (pt->body)
        dump_regex(pt->body, 1, out);
    if (pt->absent.present && pt->absent.cond) {
        fputs("  absent ", out);
        ast_dump_expr(pt->absent.cond, out);
        fputc('\n', out);
    }
    if (pt->explore.present) {
        fputs("  explore", out);
        if (pt->explore.extensions)
            fputs(" extensions", out);
        if (pt->explore.variations)
            fputs(" variations", out);
        if (pt->explore.has_confidence) {
            fputs(" confidence ", out);
            dump_number(&pt->explore.confidence, out);
        }
        if (pt->explore_attr)
            fprintf(out, " over %s", pt->explore_attr->name);
        fputc('\n', out);
    }
    if (pt->forecast.present)
        dump_forecast(pt, out);
}

const char *ast_forecast_param_name(ForecastParam p)
{
    static const char *const names[FP_COUNT] = {"confidence", "horizon", "max spread", "order",
                                                "pmin",       "alpha",   "gamma",      "r"};
    return p >= 0 && p < FP_COUNT ? names[p] : "?";
}

/* The clause as written, then (checked) the values it stands for. */
static void dump_forecast(const AstPattern *pt, FILE *out)
{
    const AstForecast *f = &pt->forecast;
    fputs("  forecast ", out);
    if (f->kind == FORECAST_WITHIN) {
        fputs("within ", out);
        dump_number(&f->k, out);
        fputs(" events", out);
    } else {
        fputs("interval", out);
    }
    for (int k = 0; k < FP_COUNT; k++)
        if (f->given[k]) {
            fprintf(out, " %s ", ast_forecast_param_name((ForecastParam)k));
            dump_number(&f->param[k], out);
        }
    if (pt->schema && f->order > 0) {
        fprintf(out, " = confidence %.15g horizon %d", f->theta, f->horizon);
        if (f->kind == FORECAST_WITHIN)
            fprintf(out, " within %d", f->within);
        else if (f->max_spread >= 0)
            fprintf(out, " max spread %d", f->max_spread);
        fprintf(out, " order %d pmin %.15g alpha %.15g gamma %.15g r %.15g", f->order, f->pmin, f->alpha,
                f->gamma, f->r);
    }
    fputc('\n', out);
}

static void dump_episode(const AstEpisode *ep, FILE *out)
{
    fprintf(out, "episode %s", ep->name);
    dump_header(&ep->hdr, ep->schema, false, out);
    if (ep->has_alert) {
        fputs(" alert when count >= ", out);
        dump_number(&ep->alert_count, out);
    }
    fputc('\n', out);
    if (ep->body)
        dump_regex(ep->body, 1, out);
}

void ast_dump_txt(const Ast *ast, FILE *out)
{
    for (int i = 0; i < ast->ndecls; i++) {
        const AstDecl *d = &ast->decls[i];
        switch (d->kind) {
        case DECL_SCHEMA: dump_schema(d->u.schema, out); break;
        case DECL_EXTERN: dump_extern(d->u.ext, out); break;
        case DECL_PATTERN: dump_pattern(d->u.pattern, out); break;
        case DECL_EPISODE: dump_episode(d->u.episode, out); break;
        }
    }
}

AstRegex *const *ast_seq_items(AstRegex *const *body, int *n)
{
    if ((*body)->kind == RX_SEQ) {
        *n = (*body)->nkids;
        return (*body)->kids;
    }
    *n = 1;
    return body;
}

void ast_put_partition(FILE *out, const AstAttr *const *attrs, int n)
{
    for (int k = 0; k < n; k++)
        fprintf(out, "%s%s", k ? ", " : ", partition by ", attrs[k]->name);
}
