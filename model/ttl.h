/*
 * ttl — DynamoDB's Time to Live rules on an item, pure (no I/O, no clock:
 * the caller passes the time).
 *
 * As the developer guide ("Using time to live") has it: the table names
 * one attribute; an item whose value of it is a Number of epoch seconds
 * below the current time is expired and will be deleted by the service
 * (in days, not at once: until then reads still return it); a value of
 * another type, or more than five years in the past, is ignored.
 */
#ifndef DDBX_TTL_H
#define DDBX_TTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"

/* Seconds beyond which a past expiry is ignored (five years). */
#define TTL_MAX_AGE_S (5LL * 365 * 24 * 3600)

/* The item's expiry in epoch seconds; false when attr is absent or not a
 * Number (the item never expires). */
bool ttl_expiry(const av *item, const char *attr, double *epoch);
/* Would DynamoDB's sweep delete an item expiring at epoch, at time now? */
bool ttl_expired(double epoch, double now);
/* "expires in 3 h", "expires in 12 min", "expires 2100-01-01" (over 30
 * days off), "expired" (any past time): for the explorer. */
void ttl_describe(double epoch, double now, char *out, size_t cap);

#endif
