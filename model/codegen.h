/*
 * codegen — SDK code for a request: the same typed ddb_req the builder
 * sends (model/ddbreq.h), printed as a small program in JavaScript (AWS
 * SDK v3, @aws-sdk/client-dynamodb), Python (boto3) or Go (AWS SDK v2).
 *
 * Each program makes a client with the SDK's default configuration
 * (region, credentials and endpoint come from the environment, as the
 * aws command line takes them), sends the one request with the low-level
 * client (attribute values in DynamoDB's typed form, so nothing is lost:
 * B values as bytes, N as text) and prints the response. The members
 * appear in the same order as in ddb_req_json, so the code, the request
 * body and the `aws dynamodb` line say the same thing.
 *
 * Pure: no I/O. Ownership: the request is only read; the text is
 * appended to the caller's buffer.
 */
#ifndef DDBX_CODEGEN_H
#define DDBX_CODEGEN_H

#include "model/buf.h"
#include "model/ddbreq.h"

typedef enum { CODEGEN_JS, CODEGEN_PYTHON, CODEGEN_GO } codegen_lang;

/* "JavaScript (AWS SDK v3)", ... for menus and the status line. */
const char *codegen_lang_name(codegen_lang lang);

/* The whole program for r, appended to out (ends with a newline). */
void codegen_write(codegen_lang lang, const ddb_req *r, buf *out);

#endif
