/*
 * Capacity in money (model/cost.h), each figure worked out by hand from
 * the prices below:
 *   on-demand: $0.125 a million read request units, $0.625 a million
 *   write request units; provisioned: $0.00013 an RCU-hour, $0.00065 a
 *   WCU-hour; storage $0.25 a GB-month; a month of 730 hours.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "model/cost.h"
#include "model/mem.h"

static price_region prices(void)
{
    price_region p = { 0 };
    p.region = "us-east-1";
    p.currency = "USD";
    p.od_read = 0.125;
    p.od_write = 0.625;
    p.pv_read = 0.00013;
    p.pv_write = 0.00065;
    p.storage = 0.25;
    return p;
}

static void near(double a, double b)
{
    assert_true(fabs(a - b) < 1e-9 * (fabs(b) + 1));
}

static void reads_per_million_and_a_month(void **state)
{
    (void)state;
    price_region p = prices();
    cost_calls c;
    /* 0.5 RCU a call (an eventually consistent read of up to 4 KB), 200 a second. */
    cost_calls_of(&p, 730, false, 0.5, 200, &c);
    near(c.od_million, 0.0625);                          /* 0.5 x $0.125 */
    near(c.pv_million, 0.5 * 0.00013 * 1e6 / 3600);      /* a million seconds of 0.5 RCU: $0.018055... */
    /* 100 RCU a second for 730 x 3600 s = 262.8 million units: $32.85. */
    near(c.od_month, 32.85);
    assert_int_equal(c.pv_units, 100);
    near(c.pv_month, 100 * 0.00013 * 730);               /* $9.49 */
    /* A rate that needs part of a unit still provisions a whole one. */
    cost_calls_of(&p, 730, false, 0.5, 1, &c);
    assert_int_equal(c.pv_units, 1);
    near(c.pv_month, 0.00013 * 730);
    /* No rate: no monthly figures. */
    cost_calls_of(&p, 730, false, 1.5, 0, &c);
    near(c.od_million, 0.1875);
    assert_true(c.od_month == 0 && c.pv_units == 0);
}

static void writes_use_the_write_prices(void **state)
{
    (void)state;
    price_region p = prices();
    cost_calls c;
    cost_calls_of(&p, 730, true, 2, 10, &c);               /* an edge and its GSI1 copy, 10 a second */
    near(c.od_million, 1.25);
    near(c.od_month, 2 * 10 * 730 * 3600 / 1e6 * 0.625);   /* $32.85 */
    assert_int_equal(c.pv_units, 20);
    near(c.pv_month, 20 * 0.00065 * 730);                  /* $9.49 */
}

static void an_unknown_price_stays_unknown(void **state)
{
    (void)state;
    price_region p = prices();
    p.od_read = NAN;
    cost_calls c;
    cost_calls_of(&p, 730, false, 0.5, 10, &c);
    assert_true(isnan(c.od_million) && isnan(c.od_month));
    near(c.pv_million, 0.5 * 0.00013 * 1e6 / 3600);
    buf b = BUF_INIT;
    cost_money(&p, c.od_month, &b);
    assert_string_equal(b.data, "?");
    buf_done(&b);
}

static void storage_counts_100_bytes_an_item(void **state)
{
    (void)state;
    price_region p = prices();
    /* 10,000 items of 1 KB: 10,240,000 + 1,000,000 bytes, of 2^30 a GB. */
    assert_int_equal(cost_storage_bytes(10240000, 10000), 11240000);
    near(cost_storage_month(&p, 10240000, 10000), 11240000.0 / 1073741824.0 * 0.25);
}

static void rates_and_money_read_and_print(void **state)
{
    (void)state;
    double r = 0;
    assert_true(cost_parse_rate("200/s", &r));
    near(r, 200);
    assert_true(cost_parse_rate("30/min", &r));
    near(r, 0.5);
    assert_true(cost_parse_rate("3600/h", &r));
    near(r, 1);
    assert_true(cost_parse_rate("86400/day", &r));
    near(r, 1);
    assert_true(cost_parse_rate("5", &r));
    assert_false(cost_parse_rate("0/s", &r));
    assert_false(cost_parse_rate("fast", &r));
    assert_false(cost_parse_rate("10/week", &r));
    price_region p = prices();
    static const struct { double v; const char *s; } cases[] = {
        { 0.0625, "$0.0625" }, { 0.018055555, "$0.0181" }, { 32.85, "$32.85" },
        { 1234.5, "$1,234.50" }, { 0.5, "$0.50" }, { 0.000000847, "$0.000000847" }, { 0, "$0.00" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        buf b = BUF_INIT;
        cost_money(&p, cases[i].v, &b);
        assert_string_equal(b.data, cases[i].s);
        buf_done(&b);
    }
    p.currency = "CNY";
    buf b = BUF_INIT;
    cost_money(&p, 0.0058, &b);
    assert_string_equal(b.data, "¥0.0058");
    buf_done(&b);
    p.currency = "EUR";
    cost_money(&p, 2, &b);
    assert_string_equal(b.data, "2.00 EUR");
    buf_done(&b);
}

static void an_entitys_write_counts_its_index_copies(void **state)
{
    (void)state;
    ent_entity e;
    entity_init(&e);
    e.count = 4;
    e.write_halves = 2 * 6;     /* 6 units for 4 items: 1.5 a write */
    e.n_idx = 2;
    e.idx = xcalloc(2, sizeof *e.idx);
    e.idx[0].write_halves = 2 * 4;   /* every item in GSI1: 1 a write */
    e.idx[1].write_halves = 2 * 2;   /* half of them in a sparse index: 0.5 */
    double table, total, idx[2];
    cost_entity_write(&e, &table, idx, &total);
    near(table, 1.5);
    near(idx[0], 1);
    near(idx[1], 0.5);
    near(total, 3);
    entity_done(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_per_million_and_a_month),
        cmocka_unit_test(writes_use_the_write_prices),
        cmocka_unit_test(an_unknown_price_stays_unknown),
        cmocka_unit_test(storage_counts_100_bytes_an_item),
        cmocka_unit_test(rates_and_money_read_and_print),
        cmocka_unit_test(an_entitys_write_counts_its_index_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
