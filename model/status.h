/*
 * status — the one enum of status codes, and the caller-owned diagnostic.
 *
 * Every model/ and data/ function that can fail returns a status and fills
 * a diag the caller owns (code, where, message). They never print, exit or
 * touch the terminal; only ui/ decides how an error is shown. The codes
 * that mirror DynamoDB errors keep DynamoDB's type names (status_name).
 */
#ifndef DDBX_STATUS_H
#define DDBX_STATUS_H

#include <stddef.h>

#define STATUS_LIST(X) \
    X(ST_OK,                  "OK") \
    X(ST_VALIDATION,          "ValidationException") \
    X(ST_SERIALIZATION,       "SerializationException") \
    X(ST_CONDITION_FAILED,    "ConditionalCheckFailedException") \
    X(ST_NOT_FOUND,           "ResourceNotFoundException") \
    X(ST_IN_USE,              "ResourceInUseException") \
    X(ST_TXN_CANCELED,        "TransactionCanceledException") \
    X(ST_TXN_CONFLICT,        "TransactionConflictException") \
    X(ST_EXPIRED_ITERATOR,    "ExpiredIteratorException") \
    X(ST_TRIMMED,             "TrimmedDataAccessException") \
    X(ST_UNKNOWN_OPERATION,   "UnknownOperationException") \
    X(ST_INTERNAL,            "InternalServerError") \
    X(ST_PARSE,               "ParseError") \
    X(ST_IO,                  "IOError") \
    X(ST_BUSY,                "DatabaseBusy") \
    X(ST_READ_ONLY,           "ReadOnly") \
    X(ST_USAGE,               "UsageError") \
    X(ST_DUPLICATE_ITEM,      "DuplicateItemException") \
    X(ST_IDEMPOTENT_MISMATCH, "IdempotentParameterMismatchException") \
    X(ST_LIMIT_EXCEEDED,      "LimitExceededException") \
    X(ST_BACKUP_NOT_FOUND,    "BackupNotFoundException") \
    X(ST_BACKUP_IN_USE,       "BackupInUseException") \
    X(ST_TABLE_EXISTS,        "TableAlreadyExistsException") \
    X(ST_TABLE_NOT_FOUND,     "TableNotFoundException") \
    X(ST_PITR_UNAVAILABLE,    "PointInTimeRecoveryUnavailableException") \
    X(ST_INVALID_RESTORE_TIME, "InvalidRestoreTimeException") \
    X(ST_COLLECTION_LIMIT,    "ItemCollectionSizeLimitExceededException") \
    X(ST_POLICY_NOT_FOUND,    "PolicyNotFoundException")

typedef enum {
#define X(code, name) code,
    STATUS_LIST(X)
#undef X
    ST__COUNT
} status;

/* DynamoDB-style type name of a code ("ValidationException"). */
const char *status_name(status code);

/*
 * Where and why. line/col are 1-based (0: not known); pos is a byte offset
 * into an expression (-1: none), for a caret under the offending token;
 * file names an input file, path an attribute path (`tags.SS[2]`).
 */
typedef struct diag {
    status code;
    int line, col;
    long pos;
    char file[256];
    char path[512];
    char msg[1024];
} diag;

void diag_init(diag *d);
/* Sets code and message (printf-style); keeps file/line/col/pos/path. */
status diag_set(diag *d, status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, and records a byte position. */
status diag_at(diag *d, status code, long pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
