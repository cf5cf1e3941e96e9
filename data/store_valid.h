/*
 * store_valid — request shape checks the way DynamoDB makes them (data/,
 * internal to the store's dispatcher).
 *
 * DynamoDB checks a request in two passes before it looks at any table:
 * first the JSON types of every member (a wrong type is a
 * SerializationException: "STRING_VALUE cannot be converted to Integer"),
 * then the declared constraints, collected into one ValidationException
 * ("2 validation errors detected: Value null at 'tableName' failed to
 * satisfy constraint: Member must not be null; ..."). Each operation
 * describes its members with a table of vspec, in DynamoDB's member
 * order, which fixes the order of the messages.
 *
 * The cJSON nodes are the dispatcher's; nothing here keeps them.
 */
#ifndef DDBX_STORE_VALID_H
#define DDBX_STORE_VALID_H

#include <stdbool.h>

#include "model/buf.h"
#include "model/status.h"

struct cJSON;

typedef enum {
    VT_END = 0,
    VT_STRING, VT_BOOL, VT_INT, VT_LONG,
    VT_LIST,       /* elem: element spec */
    VT_PLIST,      /* ParameterizedList (a list inside a map) */
    VT_PMAP,       /* ParameterizedMap of attribute values */
    VT_MAP,        /* Map<sub>; elem: value spec */
    VT_VSTRUCT,    /* ValueStruct<sub>; fields */
    VT_FSTRUCT,    /* FieldStruct<sub>; fields */
    VT_ATTRMAP,    /* Map<AttributeValue> of AttrStruct<ValueStruct> */
    VT_ATTR,       /* AttrStruct<ValueStruct> */
    VT_ATTRF,      /* AttrStruct<FieldStruct> */
    VT_TIMESTAMP,  /* a Date: a number of epoch seconds, as the SDKs send it */
} vtype;

enum {
    VF_REQUIRED = 1,   /* "The parameter 'X' is required but was not present" */
    VF_NOTNULL = 2,
    VF_NAMEPAT = 8,    /* regex [a-zA-Z0-9_.-]+ */
    VF_KEYS_TABLENAME = 16, /* map keys: table names or ARNs, 1 to 1024 long */
    VF_TABLE_REF = 32, /* a table's name or ARN: a name 3..255 of the pattern, once
                        * the constraints hold ("Invalid table/index name. ...") */
    VF_NO_VALUE = 64,  /* "Value at 'Member'": the value not quoted, the member in
                        * the request's casing (AWS's 2026 framework: Limit) */
    VF_JAVA_VALUE = 128, /* a list or map quoted as AWS's Java prints it:
                        * '[Sub(field=v, ...)]', '{k=[...]}' (KeySchema, TransactItems,
                        * BatchWriteItem's RequestItems) */
};

typedef struct vspec vspec;
struct vspec {
    const char *name;
    vtype type;
    const char *sub;            /* type parameter named in messages */
    unsigned flags;
    int min_len, max_len;       /* 0: unchecked (min 1.. / max ..); a string's
                                 * in characters (Unicode scalar values, as
                                 * Smithy's length trait counts them), not bytes */
    int vmin_len, vmax_len;     /* map values' length (BatchWriteItem) */
    long long ge, le;           /* numeric bounds, checked when has_ge/has_le */
    bool has_ge, has_le;
    const char *const *enums;   /* NULL-terminated */
    const vspec *fields;        /* VT_*STRUCT: terminated by VT_END */
    const vspec *elem;          /* VT_LIST / VT_MAP / VT_PLIST element */
    int alone;                  /* > 0: checked before the other members and,
                                 * when wrong, reported alone; rank 1 first */
};

/*
 * Checks obj against the fields (a VT_END-terminated array). Returns
 * ST_SERIALIZATION or ST_VALIDATION with DynamoDB's message in d, or ST_OK.
 * When full is not NULL it receives the whole message (d's is bounded).
 */
status store_valid_check(const struct cJSON *obj, const vspec *fields, diag *d, buf *full);

/* A table or index name's characters: [a-zA-Z0-9_.-], at least one
 * (the pattern VF_NAMEPAT checks; the lengths are the caller's). */
bool store_valid_name(const char *s, size_t n);

#endif
