#!/bin/sh
# The credential chain end to end (issue 21): every source the AWS CLI
# knows, each served by tests/creds/fake.js on 127.0.0.1 playing STS, the
# IAM Identity Center portal and OIDC, the container endpoint, IMDS and a
# DynamoDB that checks signatures; each precedence rule of the chain and of
# the endpoint settings pinned; `ddbx whoami`; the identity on the
# explorer's status line and its MFA prompt; and, last, a grep of every
# output for every secret used. Prints TAP. Needs node: without it this
# suite FAILS (it never skips). Every server it starts dies on exit.
#
# Where the expectations come from: the AWS SDKs and Tools Reference Guide
# ("Standardized credential providers", "Assume role credential
# provider", "IAM Identity Center credential provider", "Container
# credential provider", "IMDS credential provider", "Service-specific
# endpoints", "Retry behavior"), the AWS CLI User Guide ("Configuration
# and credential file settings"), the STS API Reference (AssumeRole,
# AssumeRoleWithWebIdentity, GetCallerIdentity), the IAM Identity Center
# portal API (GetRoleCredentials) and OIDC API (CreateToken), and
# botocore's credentials.py for the order and the cache file names.
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
: "${DDBX:=$root/build/ddbx}"

fail() { echo "not ok 1 - creds: $*"; exit 1; }
command -v node >/dev/null 2>&1 || fail "node is not installed (tools/deps.sh installs nodejs)"
[ -x "$DDBX" ] || fail "no ddbx binary at $DDBX"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ddbx-creds.XXXXXX") || exit 1
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# A clean environment: nothing AWS from the caller, a HOME of our own.
for v in $(env | sed -n 's/^\(AWS_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
unset DDBX_DB
export HOME="$tmp/home"
mkdir -p "$HOME/.aws"
# Nothing here may reach a real instance metadata service; the IMDS tests
# turn it back on against the fake.
export AWS_EC2_METADATA_DISABLED=true

# The secrets; none may ever appear in any output (the fake's temporary
# secrets all contain "SECRET<n>/" and its tokens "TOKEN<n>/").
BASE_SECRET='baseSECRETddbx/Q7+zz'
ENV_SECRET='envSECRETddbx/A1+bb'
WEB_TOKEN='webIDENTITYtoken.eyJhbGciOi.ddbx'
SSO_TOKEN='ssoACCESStokenDDBX1'
SSO_OLD='ssoEXPIRINGtokenDDBX2'
SSO_REFRESH='ssoREFRESHtokenDDBX3'
SSO_CLIENT_SECRET='ssoCLIENTsecretDDBX4'
CONTAINER_AUTH='containerAUTHtokenDDBX5'
MFA_CODE=735102

start_fake() { # name [VAR=value...] -> $port, $url
    name=$1; shift
    mkfifo "$tmp/$name.in"
    env FAKE_KEYS="AKBASE:$BASE_SECRET,AKENV:$ENV_SECRET,AKOTHER:$BASE_SECRET-o" \
        FAKE_WEB_TOKEN="$WEB_TOKEN" FAKE_MFA_CODE="$MFA_CODE" FAKE_EXTERNAL_ID=ext-42 \
        FAKE_SSO_TOKENS="$SSO_TOKEN" FAKE_SSO_CLIENT=client-1 \
        FAKE_SSO_CLIENT_SECRET="$SSO_CLIENT_SECRET" FAKE_SSO_REFRESH="$SSO_REFRESH" \
        FAKE_CONTAINER_AUTH="$CONTAINER_AUTH" "$@" \
        node "$root/tests/creds/fake.js" <"$tmp/$name.in" >"$tmp/$name.port" 2>"$tmp/$name.log" &
    pids="$pids $!"
    # the fifo's writer: held open on a new fd until this shell exits
    case $name in fake) exec 8>"$tmp/$name.in";; fake2) exec 7>"$tmp/$name.in";; *) exec 6>"$tmp/$name.in";; esac
    port=""
    i=0
    while [ $i -lt 100 ]; do
        port=$(sed -n 's/^PORT //p' "$tmp/$name.port" 2>/dev/null)
        [ -n "$port" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    [ -n "$port" ] || fail "$name did not start: $(head -c 500 "$tmp/$name.log")"
    url=http://127.0.0.1:$port
}
start_fake fake
F=$url
LOG=$tmp/fake.log
export AWS_ENDPOINT_URL_STS=$F AWS_ENDPOINT_URL_SSO=$F AWS_ENDPOINT_URL_SSO_OIDC=$F

n=0
rc=0
ok() { n=$((n + 1)); echo "ok $n - creds: $1"; }
notok() { n=$((n + 1)); echo "not ok $n - creds: $1"; shift; for l in "$@"; do echo "#   $l"; done; rc=1; }
out_n=0
run() { # args... -> $out $err $st
    out_n=$((out_n + 1))
    out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    "$DDBX" "$@" >"$out" 2>"$err" </dev/null
    st=$?
}
has() { grep -q -- "$2" "$1"; }
reqs() { grep -c "$1" "$LOG"; }          # how many logged requests match
mark() { mark_at=$(wc -l <"$LOG"); }     # the log's length now
since() { tail -n +$((mark_at + 1)) "$LOG"; }
# ListTables through ddbx api to the fake DynamoDB (which checks SigV4).
list() { # ddbx args...
    out_n=$((out_n + 1))
    out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    printf '%s\n' '{"Operation":"ListTables","Input":{}}' |
        "$DDBX" api --endpoint-url "$F" "$@" >"$out" 2>"$err"
    st=$?
}
listed() { [ $st -eq 0 ] && has "$out" '^{"Output":{"TableNames":\["Fake"\]}}$'; }
last_dyn() { grep ' DYNAMODB ' "$LOG" | tail -n 1; }
arn_is() { # expected ARN in whoami's output
    [ $st -eq 0 ] && has "$out" "^    \"Arn\": \"$1\"$"
}
why() { echo "exit $st; out: $(head -c 300 "$out" | tr '\n' ' '); err: $(head -c 400 "$err")"; }

cat >"$HOME/.aws/credentials" <<EOF
[base]
aws_access_key_id = AKBASE
aws_secret_access_key = $BASE_SECRET

[order]
aws_access_key_id = AKBASE
aws_secret_access_key = $BASE_SECRET

[other]
aws_access_key_id = AKOTHER
aws_secret_access_key = $BASE_SECRET-o
EOF
cat >"$HOME/.aws/config" <<EOF
[profile base]
region = eu-west-1

[profile r1]
role_arn = arn:aws:iam::123456789012:role/first
source_profile = base

[profile r2]
role_arn = arn:aws:iam::123456789012:role/second
source_profile = r1
role_session_name = ddbx-test
duration_seconds = 1800

[profile loop-a]
role_arn = arn:aws:iam::123456789012:role/a
source_profile = loop-b

[profile loop-b]
role_arn = arn:aws:iam::123456789012:role/b
source_profile = loop-a

[profile self]
role_arn = arn:aws:iam::123456789012:role/self
source_profile = self
aws_access_key_id = AKOTHER
aws_secret_access_key = $BASE_SECRET-o

[profile nosrc]
role_arn = arn:aws:iam::123456789012:role/x
source_profile = missing

[profile both]
role_arn = arn:aws:iam::123456789012:role/x
source_profile = base
credential_source = Environment

[profile neither]
role_arn = arn:aws:iam::123456789012:role/x

[profile from-env]
role_arn = arn:aws:iam::123456789012:role/from-env
credential_source = Environment

[profile from-ecs]
role_arn = arn:aws:iam::123456789012:role/from-ecs
credential_source = EcsContainer

[profile from-imds]
role_arn = arn:aws:iam::123456789012:role/from-imds
credential_source = Ec2InstanceMetadata

[profile badsource]
role_arn = arn:aws:iam::123456789012:role/x
credential_source = Lambda

[profile ext]
role_arn = arn:aws:iam::123456789012:role/external-partner
source_profile = base
external_id = ext-42

[profile ext-missing]
role_arn = arn:aws:iam::123456789012:role/external-partner
source_profile = base

[profile mfa]
role_arn = arn:aws:iam::123456789012:role/mfa-admin
source_profile = base
mfa_serial = arn:aws:iam::111122223333:mfa/alice
duration_seconds = 3600

[profile web]
role_arn = arn:aws:iam::123456789012:role/web
web_identity_token_file = $tmp/web.token
role_session_name = web-sess

[profile web-norole]
web_identity_token_file = $tmp/web.token

[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = us-east-1
sso_registration_scopes = sso:account:access

[profile sso]
sso_session = corp
sso_account_id = 210987654321
sso_role_name = ReadOnly
region = us-west-2

[profile sso-legacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = eu-central-1
sso_account_id = 210987654321
sso_role_name = Legacy

[profile sso-half]
sso_start_url = https://legacy.awsapps.com/start
sso_account_id = 210987654321

[profile sso-nosession]
sso_session = nosuch
sso_account_id = 210987654321
sso_role_name = ReadOnly

[profile order]
credential_process = /bin/false

[profile proc-over-conf]
credential_process = /bin/sh -c "printf '{\\"Version\\":1,\\"AccessKeyId\\":\\"AKOTHER\\",\\"SecretAccessKey\\":\\"%s\\"}' '$BASE_SECRET-o'"
aws_access_key_id = AKBASE
aws_secret_access_key = $BASE_SECRET

[profile ep]
region = eu-west-1
aws_access_key_id = AKENV
aws_secret_access_key = $ENV_SECRET
services = local-ddb
endpoint_url = http://127.0.0.1:1

[profile ep-global]
region = eu-west-1
aws_access_key_id = AKENV
aws_secret_access_key = $ENV_SECRET
endpoint_url = $F

[services local-ddb]
dynamodb =
  endpoint_url = $F
s3 =
  endpoint_url = http://127.0.0.1:2

[profile retry]
region = eu-west-1
aws_access_key_id = AKENV
aws_secret_access_key = $ENV_SECRET
max_attempts = 2

[profile legacy]
region = eu-west-1
aws_access_key_id = AKENV
aws_secret_access_key = $ENV_SECRET
retry_mode = legacy
max_attempts = 3

[profile badretry]
region = eu-west-1
aws_access_key_id = AKENV
aws_secret_access_key = $ENV_SECRET
retry_mode = sometimes
EOF
cp "$HOME/.aws/config" "$tmp/config.orig"
printf '%s\n' "$WEB_TOKEN" >"$tmp/web.token"
deadport=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{const p=s.address().port;s.close(()=>console.log(p))})')

# --- whoami, static keys -----------------------------------------------------
run whoami --profile base
printf '{\n    "UserId": "AIDAAKBASE",\n    "Account": "111122223333",\n    "Arn": "arn:aws:iam::111122223333:user/AKBASE"\n}\n' >"$tmp/whoami.want"
if [ $st -eq 0 ] && cmp -s "$out" "$tmp/whoami.want" &&
   has "$err" '^ddbx whoami: profile base, region eu-west-1, credentials from .*/.aws/credentials \[base\]$' &&
   tail -n 1 "$LOG" | grep -q 'STS key=AKBASE region=eu-west-1 .*Action=GetCallerIdentity'; then
    ok "whoami prints GetCallerIdentity as aws sts get-caller-identity does (SigV4 for sts in the profile's region)"
else
    notok "whoami prints GetCallerIdentity as aws sts get-caller-identity does" "$(why)" "$(tail -n 1 "$LOG")"
fi
run --whoami --profile base
check_same() { cmp -s "$out" "$tmp/whoami.want"; }
if [ $st -eq 0 ] && check_same; then ok "ddbx --whoami is the same command"; else notok "ddbx --whoami is the same command" "$(why)"; fi
run whoami --endpoint-url "$F"
if [ $st -eq 2 ] && has "$err" "endpoint-url is DynamoDB's"; then ok "whoami --endpoint-url: a usage error naming AWS_ENDPOINT_URL_STS"; else notok "whoami --endpoint-url: a usage error" "$(why)"; fi

# --- assumed roles -------------------------------------------------------------
mark
run whoami --profile r1
if arn_is 'arn:aws:sts::123456789012:assumed-role/first/ddbx-session-[0-9]*' &&
   since | grep -q 'STS key=AKBASE region=us-east-1 token=no Action=AssumeRole Version=2011-06-15 RoleArn=arn:aws:iam::123456789012:role/first RoleSessionName=ddbx-session-[0-9]*$'; then
    ok "role_arn + source_profile: AssumeRole signed with the source's keys (in the named profile's region: none, so us-east-1); the role's ARN answers"
else
    notok "role_arn + source_profile: AssumeRole signed with the source's keys" "$(why)" "$(since)"
fi
mark
run whoami --profile r2
a1=$(since | grep -c 'Action=AssumeRole ')
if arn_is 'arn:aws:sts::123456789012:assumed-role/second/ddbx-test' &&
   since | grep -q 'STS key=ASIAROLE[0-9]* region=us-east-1 token=yes Action=AssumeRole .*RoleArn=arn:aws:iam::123456789012:role/second RoleSessionName=ddbx-test DurationSeconds=1800$' &&
   [ "$a1" -eq 1 ]; then
    ok "a chain r2 -> r1 -> base: r2 assumed with r1's temporary keys and token; r1 came from the cache (role_session_name, duration_seconds sent)"
else
    notok "a chain r2 -> r1 -> base" "$(why)" "$(since)"
fi
# the AWS CLI's cache: ~/.aws/cli/cache/<sha1 of botocore's sorted JSON arguments>.json, 0600
key=$(node -e 'console.log(require("crypto").createHash("sha1").update(JSON.stringify({DurationSeconds:1800,RoleArn:"arn:aws:iam::123456789012:role/second"})).digest("hex"))')
cf="$HOME/.aws/cli/cache/$key.json"
if [ -f "$cf" ] && [ "$(stat -c %a "$cf")" = 600 ] && grep -q '"Expiration":"20[0-9-]*T[0-9:]*Z"' "$cf"; then
    ok "assumed-role credentials cached in ~/.aws/cli/cache under the AWS CLI's own key, mode 0600"
else
    notok "assumed-role credentials cached under the AWS CLI's key" "$(ls -l "$HOME/.aws/cli/cache" 2>&1)"
fi
mark
list --profile r2
if listed && [ "$(since | grep -c ' STS ')" -eq 0 ] && last_dyn | grep -q 'key=ASIAROLE[0-9]* region=us-east-1 token=yes'; then
    ok "a second command uses the cached role keys: no STS call; DynamoDB signed with them and their token"
else
    notok "a second command uses the cached role keys" "$(why)" "$(since)"
fi
# a cache entry with under 15 minutes left is not used (botocore's window)
soon=$(date -u -d '+10 min' +%Y-%m-%dT%H:%M:%SZ)
sed -i "s/\"Expiration\":\"[^\"]*\"/\"Expiration\":\"$soon\"/" "$cf"
mark
run whoami --profile r2
if arn_is 'arn:aws:sts::123456789012:assumed-role/second/ddbx-test' && [ "$(since | grep -c 'Action=AssumeRole .*role/second')" -eq 1 ]; then
    ok "a cached entry expiring within 15 minutes is fetched again"
else
    notok "a cached entry expiring within 15 minutes is fetched again" "$(why)" "$(since)"
fi

run whoami --profile loop-a
if [ $st -eq 1 ] && has "$err" "the source_profile chain loops: loop-a -> loop-b -> loop-a"; then
    ok "a source_profile cycle is refused, naming the loop"
else notok "a source_profile cycle is refused" "$(why)"; fi
run whoami --profile self
if arn_is 'arn:aws:sts::123456789012:assumed-role/self/.*' && tail -n 3 "$LOG" | grep -q 'STS key=AKOTHER .*Action=AssumeRole .*role/self'; then
    ok "a profile may be its own source_profile when it has static keys (botocore's rule)"
else notok "a profile may be its own source_profile when it has static keys" "$(why)"; fi
run whoami --profile nosrc
if [ $st -eq 1 ] && has "$err" "the source_profile 'missing' of profile 'nosrc' does not exist"; then ok "a missing source_profile: named"; else notok "a missing source_profile: named" "$(why)"; fi
run whoami --profile both
if [ $st -eq 1 ] && has "$err" "profile 'both' has both source_profile and credential_source"; then ok "source_profile with credential_source: refused"; else notok "source_profile with credential_source: refused" "$(why)"; fi
run whoami --profile neither
if [ $st -eq 1 ] && has "$err" "profile 'neither' has role_arn but neither source_profile nor credential_source"; then ok "role_arn alone: refused"; else notok "role_arn alone: refused" "$(why)"; fi
run whoami --profile badsource
if [ $st -eq 1 ] && has "$err" "credential_source 'Lambda' is not one of Environment, Ec2InstanceMetadata, EcsContainer"; then ok "an unknown credential_source: refused"; else notok "an unknown credential_source: refused" "$(why)"; fi

out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" whoami --profile from-env >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:sts::123456789012:assumed-role/from-env/.*' && tail -n 2 "$LOG" | grep -q 'STS key=AKENV .*Action=AssumeRole .*role/from-env'; then
    ok "credential_source = Environment: the role assumed with the environment's keys (an explicit profile)"
else notok "credential_source = Environment" "$(why)"; fi

mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_CONTAINER_CREDENTIALS_FULL_URI="$F/container/v2/credentials" AWS_CONTAINER_AUTHORIZATION_TOKEN="$CONTAINER_AUTH" \
    "$DDBX" whoami --profile from-ecs >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:sts::123456789012:assumed-role/from-ecs/.*' && since | grep -q 'CONTAINER path=/container/v2/credentials auth=valid' &&
   since | grep -q 'STS key=ASIAECS[0-9]* .*token=yes Action=AssumeRole .*role/from-ecs'; then
    ok "credential_source = EcsContainer: the container endpoint's keys assume the role"
else notok "credential_source = EcsContainer" "$(why)" "$(since)"; fi

mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_EC2_METADATA_DISABLED= AWS_EC2_METADATA_SERVICE_ENDPOINT="$F" "$DDBX" whoami --profile from-imds >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:sts::123456789012:assumed-role/from-imds/.*' && since | grep -q 'STS key=ASIAIMDS[0-9]* .*Action=AssumeRole .*role/from-imds'; then
    ok "credential_source = Ec2InstanceMetadata: IMDS's keys assume the role"
else notok "credential_source = Ec2InstanceMetadata" "$(why)" "$(since)"; fi

run whoami --profile ext
if arn_is 'arn:aws:sts::123456789012:assumed-role/external-partner/.*' && tail -n 2 "$LOG" | grep -q 'Action=AssumeRole .*ExternalId=ext-42'; then
    ok "external_id is sent as ExternalId"
else notok "external_id is sent as ExternalId" "$(why)"; fi
run whoami --profile ext-missing
if [ $st -eq 1 ] && has "$err" "AssumeRole arn:aws:iam::123456789012:role/external-partner for profile 'ext-missing': STS AccessDenied: User is not authorized to perform: sts:AssumeRole"; then
    ok "STS refusing AssumeRole: its code and message, the role and the profile named, exit 1"
else notok "STS refusing AssumeRole: its code and message" "$(why)"; fi

# --- MFA on the command line (a pseudo-terminal from script(1)) --------------
mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '%s\n' "$MFA_CODE" | script -qec "$DDBX whoami --profile mfa" /dev/null >"$out" 2>"$err"; st=$?
if [ $st -eq 0 ] && has "$out" "Enter MFA code for arn:aws:iam::111122223333:mfa/alice: " &&
   has "$out" '"Arn": "arn:aws:sts::123456789012:assumed-role/mfa-admin/' &&
   since | grep -q 'Action=AssumeRole .*SerialNumber=arn:aws:iam::111122223333:mfa/alice TokenCode=(given)'; then
    ok "mfa_serial: the code asked for on the terminal, sent with SerialNumber; the role assumed"
else notok "mfa_serial: the code asked for on the terminal" "$(why)" "$(since)"; fi
mark
run whoami --profile mfa
if arn_is 'arn:aws:sts::123456789012:assumed-role/mfa-admin/.*' && [ "$(since | grep -c 'Action=AssumeRole')" -eq 0 ] &&
   ! has "$out" "Enter MFA"; then
    ok "the MFA role's keys are cached: no second prompt, no second AssumeRole"
else notok "the MFA role's keys are cached: no second prompt" "$(why)" "$(since)"; fi
rm -f "$HOME/.aws/cli/cache/"*.json
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '000000\n' | script -qec "$DDBX whoami --profile mfa" /dev/null >"$out" 2>"$err"; st=$?
if [ $st -ne 0 ] && has "$out" "STS AccessDenied: MultiFactorAuthentication failed"; then
    ok "a wrong MFA code: STS's AccessDenied, exit 1"
else notok "a wrong MFA code: STS's AccessDenied" "$(why)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
setsid -w "$DDBX" whoami --profile mfa </dev/null >"$out" 2>"$err"; st=$?
if [ $st -eq 1 ] && has "$err" "profile 'mfa' needs an MFA code for arn:aws:iam::111122223333:mfa/alice and none was given (no terminal to ask on?)"; then
    ok "no terminal to ask on: a clear error, not a hang"
else notok "no terminal to ask on: a clear error" "$(why)"; fi

# --- web identity --------------------------------------------------------------
mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_WEB_IDENTITY_TOKEN_FILE="$tmp/web.token" AWS_ROLE_ARN=arn:aws:iam::123456789012:role/ci AWS_ROLE_SESSION_NAME=build-7 \
    "$DDBX" whoami --profile base >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:sts::123456789012:assumed-role/ci/build-7' &&
   since | grep -q 'STS key=- region=- token=no Action=AssumeRoleWithWebIdentity Version=2011-06-15 RoleArn=arn:aws:iam::123456789012:role/ci RoleSessionName=build-7 WebIdentityToken=(given)'; then
    ok "AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN: AssumeRoleWithWebIdentity, unsigned, the file's token; it wins over the profile's static keys"
else notok "AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN: AssumeRoleWithWebIdentity" "$(why)" "$(since)"; fi
run whoami --profile web
if arn_is 'arn:aws:sts::123456789012:assumed-role/web/web-sess'; then
    ok "web_identity_token_file + role_arn in a profile (role_session_name used)"
else notok "web_identity_token_file + role_arn in a profile" "$(why)"; fi
run whoami --profile web-norole
if [ $st -eq 1 ] && has "$err" "web_identity_token_file names a web identity token file but no role: set AWS_ROLE_ARN or role_arn in profile 'web-norole'"; then
    ok "a web identity token file without a role: a clear error"
else notok "a web identity token file without a role: a clear error" "$(why)"; fi
echo "not-the-token" >"$tmp/bad.token"
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_WEB_IDENTITY_TOKEN_FILE="$tmp/bad.token" AWS_ROLE_ARN=arn:aws:iam::123456789012:role/ci "$DDBX" whoami >"$out" 2>"$err"; st=$?
if [ $st -eq 1 ] && has "$err" "AssumeRoleWithWebIdentity arn:aws:iam::123456789012:role/ci: STS InvalidIdentityToken: The web identity token is not valid"; then
    ok "a token STS refuses: InvalidIdentityToken, exit 1"
else notok "a token STS refuses: InvalidIdentityToken" "$(why)"; fi

# --- IAM Identity Center -------------------------------------------------------
sha1() { printf '%s' "$1" | node -e 'let s="";process.stdin.on("data",(c)=>s+=c).on("end",()=>console.log(require("crypto").createHash("sha1").update(s).digest("hex")))'; }
mkdir -p "$HOME/.aws/sso/cache"
corp=$HOME/.aws/sso/cache/$(sha1 corp).json
legacy=$HOME/.aws/sso/cache/$(sha1 https://legacy.awsapps.com/start).json
later=$(date -u -d '+8 hours' +%Y-%m-%dT%H:%M:%SZ)
past=$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%SZ)
soon=$(date -u -d '+5 min' +%Y-%m-%dT%H:%M:%SZ)
regexp=$(date -u -d '+60 days' +%Y-%m-%dT%H:%M:%SZ)
printf '{"startUrl":"https://corp.awsapps.com/start","region":"us-east-1","accessToken":"%s","expiresAt":"%s"}' "$SSO_TOKEN" "$later" >"$corp"
mark
run whoami --profile sso
if arn_is 'arn:aws:sts::210987654321:assumed-role/AWSReservedSSO_ReadOnly_abc/user' &&
   since | grep -q 'SSO account_id=210987654321 role_name=ReadOnly bearer=valid' &&
   has "$err" 'credentials from IAM Identity Center (profile sso, sso_session corp, https://corp.awsapps.com/start)'; then
    ok "sso_session: the token from ~/.aws/sso/cache/sha1(session name).json, GetRoleCredentials for the account and role"
else notok "sso_session: the cached token, GetRoleCredentials" "$(why)" "$(since)"; fi
mark
list --profile sso
ssokey=$(node -e 'console.log(require("crypto").createHash("sha1").update(JSON.stringify({accountId:"210987654321",roleName:"ReadOnly",sessionName:"corp"})).digest("hex"))')
if listed && last_dyn | grep -q 'key=ASIASSO[0-9]* region=us-west-2 token=yes' && [ "$(since | grep -c ' SSO ')" -eq 0 ] &&
   [ -f "$HOME/.aws/cli/cache/$ssokey.json" ]; then
    ok "the SSO role's keys sign DynamoDB requests (the profile's region), from the CLI's cache the first run wrote (botocore's key)"
else notok "the SSO role's keys sign DynamoDB requests, from the cache" "$(why)" "$(last_dyn)" "$(since)"; fi
rm -f "$HOME/.aws/cli/cache/"*.json
printf '{"startUrl":"https://legacy.awsapps.com/start","region":"eu-central-1","accessToken":"%s","expiresAt":"%s"}' "$SSO_TOKEN" "$later" >"$legacy"
run whoami --profile sso-legacy
if arn_is 'arn:aws:sts::210987654321:assumed-role/AWSReservedSSO_Legacy_abc/user'; then
    ok "legacy sso_start_url/sso_region keys: the token under sha1(start URL)"
else notok "legacy sso_* keys" "$(why)"; fi
rm -f "$HOME/.aws/cli/cache/"*.json
printf '{"startUrl":"https://legacy.awsapps.com/start","region":"eu-central-1","accessToken":"%s","expiresAt":"%s"}' "$SSO_TOKEN" "$past" >"$legacy"
mark
run whoami --profile sso-legacy
if [ $st -eq 1 ] && has "$err" "the IAM Identity Center (SSO) token for profile 'sso-legacy' has expired: run \`aws sso login --profile sso-legacy\`" &&
   [ "$(since | grep -c ' SSO ')" -eq 0 ]; then
    ok "an expired token: \"run aws sso login --profile P\", the portal not asked"
else notok "an expired token: run aws sso login" "$(why)" "$(since)"; fi
rm -f "$legacy"
run whoami --profile sso-legacy
if [ $st -eq 1 ] && has "$err" "token for profile 'sso-legacy' is not in ~/.aws/sso/cache: run \`aws sso login --profile sso-legacy\`"; then
    ok "no cached token: \"run aws sso login --profile P\""
else notok "no cached token: run aws sso login" "$(why)"; fi
printf '{"startUrl":"https://legacy.awsapps.com/start","region":"eu-central-1","accessToken":"revokedTOKEN","expiresAt":"%s"}' "$later" >"$legacy"
run whoami --profile sso-legacy
if [ $st -eq 1 ] && has "$err" "was refused by the portal (expired or signed out): run \`aws sso login --profile sso-legacy\`"; then
    ok "a token the portal refuses (401): \"run aws sso login\""
else notok "a token the portal refuses" "$(why)"; fi
printf '{"startUrl":"https://corp.awsapps.com/start","region":"us-east-1","accessToken":"%s","expiresAt":"%s","clientId":"client-1","clientSecret":"%s","registrationExpiresAt":"%s","refreshToken":"%s"}' \
    "$SSO_OLD" "$soon" "$SSO_CLIENT_SECRET" "$regexp" "$SSO_REFRESH" >"$corp"
rm -f "$HOME/.aws/cli/cache/"*.json
mark
run whoami --profile sso
if arn_is 'arn:aws:sts::210987654321:assumed-role/AWSReservedSSO_ReadOnly_abc/user' &&
   since | grep -q 'OIDC grantType=refresh_token client=ok refresh=ok' && since | grep -q 'SSO .* bearer=valid' &&
   grep -q '"accessToken":"ssoREFRESHEDaccess' "$corp" && ! grep -q "$SSO_OLD" "$corp"; then
    ok "a token expiring within 15 minutes: refreshed with its refresh token (OIDC CreateToken), the cache file rewritten"
else notok "a token expiring within 15 minutes: refreshed" "$(why)" "$(since)" "$(head -c 300 "$corp")"; fi
run whoami --profile sso-half
if [ $st -eq 1 ] && has "$err" "profile 'sso-half' is set up for IAM Identity Center but lacks sso_region"; then ok "a half-configured SSO profile: the missing key named"; else notok "a half-configured SSO profile" "$(why)"; fi
run whoami --profile sso-nosession
if [ $st -eq 1 ] && has "$err" "profile 'sso-nosession' names sso_session 'nosuch', which has no \[sso-session nosuch\] section"; then ok "an sso_session without its section: named"; else notok "an sso_session without its section" "$(why)"; fi

# --- the container endpoint ------------------------------------------------------
mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
echo "$CONTAINER_AUTH" >"$tmp/auth.token"
AWS_CONTAINER_CREDENTIALS_FULL_URI="$F/container/pod" AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE="$tmp/auth.token" \
    AWS_CONTAINER_AUTHORIZATION_TOKEN=wrong "$DDBX" whoami >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:sts::444455556666:assumed-role/ecs-task/abc' && since | grep -q 'CONTAINER path=/container/pod auth=valid' &&
   has "$err" 'credentials from container credentials endpoint (AWS_CONTAINER_CREDENTIALS_FULL_URI)'; then
    ok "AWS_CONTAINER_CREDENTIALS_FULL_URI with AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (which wins over ..._TOKEN)"
else notok "the container endpoint with a token file" "$(why)" "$(since)"; fi
mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_CONTAINER_CREDENTIALS_FULL_URI="$F/container/pod" AWS_CONTAINER_AUTHORIZATION_TOKEN=wrong "$DDBX" whoami >"$out" 2>"$err"; st=$?
if [ $st -eq 1 ] && has "$err" "the container credentials endpoint answered HTTP 401: Authorization header is missing or wrong" &&
   [ "$(since | grep -c CONTAINER)" -eq 1 ]; then
    ok "a wrong authorization token: the endpoint's 401 and message, not retried"
else notok "a wrong container authorization token" "$(why)" "$(since)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_CONTAINER_CREDENTIALS_FULL_URI="http://192.0.2.7/creds" "$DDBX" whoami >"$out" 2>"$err"; st=$?
if [ $st -eq 1 ] && has "$err" "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https://, or http:// to a loopback address"; then
    ok "a full URI to a host that is neither loopback nor ECS/EKS's over http: refused"
else notok "a full URI to another host over http: refused" "$(why)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_CONTAINER_CREDENTIALS_FULL_URI="$F/container/x" AWS_CONTAINER_AUTHORIZATION_TOKEN="$CONTAINER_AUTH" \
    AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" whoami >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:iam::111122223333:user/AKENV'; then ok "environment keys win over the container endpoint"; else notok "environment keys win over the container endpoint" "$(why)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_CONTAINER_CREDENTIALS_FULL_URI="$F/container/x" AWS_CONTAINER_AUTHORIZATION_TOKEN="$CONTAINER_AUTH" \
    "$DDBX" whoami --profile base >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:iam::111122223333:user/AKBASE'; then ok "the profile's keys win over the container endpoint"; else notok "the profile's keys win over the container endpoint" "$(why)"; fi

# --- IMDS ------------------------------------------------------------------------
imds() { # extra env... ; whoami with IMDS on, pointed at the fake
    out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    env AWS_EC2_METADATA_DISABLED= "$@" "$DDBX" whoami >"$out" 2>"$err"; st=$?
}
mark
imds AWS_EC2_METADATA_SERVICE_ENDPOINT="$F"
if arn_is 'arn:aws:sts::777788889999:assumed-role/ddbx-instance-role/i-0abc' &&
   [ "$(since | grep '^REQ [0-9]* IMDS' | sed 's/^REQ [0-9]* //' | tr '\n' '|')" = "IMDS token-put ttl=21600|IMDS get path=/latest/meta-data/iam/security-credentials/ session=valid|IMDS get path=/latest/meta-data/iam/security-credentials/ddbx-instance-role session=valid|" ] &&
   has "$err" 'credentials from EC2 instance metadata (IMDSv2, role ddbx-instance-role)'; then
    ok "IMDSv2: a PUT for a session token (TTL 21600), then the role's name and its keys, each with the token"
else notok "IMDSv2: token, role, keys" "$(why)" "$(since)"; fi
start_fake fake2 FAKE_IMDS=v1only
F2=$url
LOG2=$tmp/fake2.log
imds AWS_EC2_METADATA_SERVICE_ENDPOINT="$F2" AWS_ENDPOINT_URL_STS="$F2"
if arn_is 'arn:aws:sts::777788889999:assumed-role/ddbx-instance-role/i-0abc' && grep -q 'IMDS get path=/latest/meta-data/iam/security-credentials/ session=none' "$LOG2" &&
   has "$err" 'EC2 instance metadata (IMDSv1'; then
    ok "the token PUT refused with 403: IMDSv1 as the fallback (the SDKs' rule)"
else notok "IMDSv1 fallback on 403" "$(why)" "$(cat "$LOG2")"; fi
imds AWS_EC2_METADATA_SERVICE_ENDPOINT="$F2" AWS_ENDPOINT_URL_STS="$F2" AWS_EC2_METADATA_V1_DISABLED=true
if [ $st -eq 1 ] && has "$err" "refused a session token (HTTP 403) and ec2_metadata_v1_disabled forbids IMDSv1"; then
    ok "AWS_EC2_METADATA_V1_DISABLED: no fallback, a clear error"
else notok "AWS_EC2_METADATA_V1_DISABLED: no fallback" "$(why)"; fi
exec 7>&-
start_fake fake3 FAKE_IMDS=hang
t0=$(date +%s%N)
imds AWS_EC2_METADATA_SERVICE_ENDPOINT="$url"
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
if [ $st -eq 1 ] && has "$err" "the EC2 instance metadata service (no answer from $url in 1 s)" && [ "$ms" -lt 3000 ]; then
    ok "an IMDS that never answers: given up after the SDKs' 1 s time-out (${ms} ms in all), the error says so"
else notok "an IMDS that never answers: given up after 1 s" "$(why)" "${ms} ms"; fi
t0=$(date +%s%N)
imds AWS_EC2_METADATA_SERVICE_ENDPOINT="http://127.0.0.1:$deadport" AWS_METADATA_SERVICE_NUM_ATTEMPTS=2
t1=$(date +%s%N)
if [ $st -eq 1 ] && has "$err" "no answer from http://127.0.0.1:$deadport in 1 s"; then
    ok "no IMDS at all (refused): the chain ends at once with every place named ($(( (t1 - t0) / 1000000 )) ms)"
else notok "no IMDS at all: the chain ends with every place named" "$(why)"; fi
run whoami
if [ $st -eq 1 ] && has "$err" "the container endpoint (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI are not set) and the EC2 instance metadata service (disabled by AWS_EC2_METADATA_DISABLED)"; then
    ok "AWS_EC2_METADATA_DISABLED=true: IMDS not asked, and the message says so"
else notok "AWS_EC2_METADATA_DISABLED=true: IMDS not asked" "$(why)"; fi

# --- precedence ------------------------------------------------------------------
cat >>"$HOME/.aws/config" <<EOF

[default]
role_arn = arn:aws:iam::123456789012:role/default-role
source_profile = base
EOF
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" AWS_WEB_IDENTITY_TOKEN_FILE="$tmp/web.token" \
    AWS_ROLE_ARN=arn:aws:iam::123456789012:role/ci "$DDBX" whoami >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:iam::111122223333:user/AKENV'; then ok "environment keys first: over web identity and the default profile's role"; else notok "environment keys first" "$(why)"; fi
run whoami
if arn_is 'arn:aws:sts::123456789012:assumed-role/default-role/.*'; then ok "[default] with role_arn assumes the role (assume-role before static keys)"; else notok "[default] with role_arn assumes the role" "$(why)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_WEB_IDENTITY_TOKEN_FILE="$tmp/web.token" AWS_ROLE_ARN=arn:aws:iam::123456789012:role/ci "$DDBX" whoami >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:sts::123456789012:assumed-role/default-role/.*'; then ok "a profile's role_arn comes before the environment's web identity (botocore's order)"; else notok "role_arn before web identity" "$(why)"; fi
cp "$tmp/config.orig" "$HOME/.aws/config"
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_PROFILE=base AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" whoami >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:iam::111122223333:user/AKENV'; then ok "AWS_PROFILE does not override the environment's keys; --profile does (next)"; else notok "AWS_PROFILE vs environment keys" "$(why)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" whoami --profile base >"$out" 2>"$err"; st=$?
if arn_is 'arn:aws:iam::111122223333:user/AKBASE'; then ok "--profile overrides the environment's keys"; else notok "--profile overrides the environment's keys" "$(why)"; fi
run whoami --profile order
if arn_is 'arn:aws:iam::111122223333:user/AKBASE'; then ok "the credentials file's static keys come before the profile's credential_process (which would fail)"; else notok "static keys before credential_process" "$(why)"; fi
printf '[proc-over-conf]\n' >>"$HOME/.aws/credentials"
run whoami --profile proc-over-conf
if arn_is 'arn:aws:iam::111122223333:user/AKOTHER'; then ok "credential_process comes before the config file's static keys"; else notok "credential_process before config static keys" "$(why)"; fi
run whoami --profile nosuch
if [ $st -eq 1 ] && has "$err" "the profile 'nosuch' is in neither $HOME/.aws/config nor $HOME/.aws/credentials"; then ok "a named profile that does not exist: said so (no network asked)"; else notok "a named profile that does not exist" "$(why)"; fi

# --- endpoint, retry and CA settings ---------------------------------------------------
lst() { # env... ; ddbx api (no --endpoint-url) ListTables
    out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    printf '%s\n' '{"Operation":"ListTables","Input":{}}' | env "$@" >"$out" 2>"$err"; st=$?
}
lst AWS_ENDPOINT_URL_DYNAMODB="$F" AWS_ENDPOINT_URL="http://127.0.0.1:$deadport" "$DDBX" api --region eu-west-1 --profile base
if listed; then ok "AWS_ENDPOINT_URL_DYNAMODB wins over AWS_ENDPOINT_URL"; else notok "AWS_ENDPOINT_URL_DYNAMODB wins over AWS_ENDPOINT_URL" "$(why)"; fi
lst AWS_ENDPOINT_URL="$F" "$DDBX" api --profile ep
if listed; then ok "AWS_ENDPOINT_URL wins over the profile's services section"; else notok "AWS_ENDPOINT_URL wins over the services section" "$(why)"; fi
lst AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --profile ep
if listed; then ok "the services section's dynamodb endpoint_url wins over the profile's endpoint_url"; else notok "the services section wins over endpoint_url" "$(why)"; fi
lst "$DDBX" api --profile ep-global
if listed; then ok "a profile's endpoint_url (with AWS_PROFILE)"; else notok "a profile's endpoint_url" "$(why)"; fi
lst AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$deadport" AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --endpoint-url "$F"
if listed; then ok "--endpoint-url wins over every configured endpoint"; else notok "--endpoint-url wins" "$(why)"; fi
# AWS's own endpoints, seen through the fake playing an HTTPS proxy that
# logs the CONNECT and refuses it (nothing leaves the machine).
connects() { grep '^REQ [0-9]* CONNECT ' "$LOG" | sed 's/^REQ [0-9]* CONNECT //' | tail -n "$1" | tr '\n' ' '; }
lst https_proxy="$F" AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true AWS_MAX_ATTEMPTS=1 "$DDBX" api --profile ep
if [ "$(connects 1)" = "dynamodb.eu-west-1.amazonaws.com:443 " ] && has "$out" '"Code":"NetworkError"'; then
    ok "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true: AWS's own endpoint for the region (dynamodb.eu-west-1.amazonaws.com)"
else notok "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true" "$(why)" "$(connects 1)"; fi
whoami_via_proxy() { # env...
    out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
    env -u AWS_ENDPOINT_URL_STS https_proxy="$F" "$@" "$DDBX" whoami --profile base >"$out" 2>"$err"; st=$?
}
whoami_via_proxy
whoami_via_proxy AWS_STS_REGIONAL_ENDPOINTS=legacy
whoami_via_proxy AWS_REGION=cn-north-1
whoami_via_proxy AWS_REGION=ap-east-1 AWS_STS_REGIONAL_ENDPOINTS=legacy
if [ "$(connects 4)" = "sts.eu-west-1.amazonaws.com:443 sts.amazonaws.com:443 sts.cn-north-1.amazonaws.com.cn:443 sts.ap-east-1.amazonaws.com:443 " ] &&
   [ $st -eq 1 ]; then
    ok "STS regional endpoints by default; sts_regional_endpoints = legacy: the global one for the regions that had it, not for newer ones"
else notok "STS regional endpoints" "$(connects 4)"; fi
rm -f "$HOME/.aws/cli/cache/"*.json
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
env -u AWS_ENDPOINT_URL_SSO https_proxy="$F" "$DDBX" whoami --profile sso >"$out" 2>"$err"; st=$?
if [ "$(connects 1)" = "portal.sso.us-east-1.amazonaws.com:443 " ] && [ $st -eq 1 ]; then
    ok "GetRoleCredentials goes to portal.sso.SSO_REGION.amazonaws.com"
else notok "the SSO portal's endpoint" "$(connects 1)" "$(why)"; fi
lst AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$deadport" AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --profile retry
if has "$out" '"Code":"NetworkError",.*(after 2 attempts)'; then ok "max_attempts in the profile"; else notok "max_attempts in the profile" "$(why)"; fi
lst AWS_MAX_ATTEMPTS=4 AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$deadport" AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --profile retry
if has "$out" '"Code":"NetworkError",.*(after 4 attempts)'; then ok "AWS_MAX_ATTEMPTS wins over the profile's max_attempts"; else notok "AWS_MAX_ATTEMPTS wins" "$(why)"; fi
t0=$(date +%s%N)
lst AWS_ENDPOINT_URL_DYNAMODB="http://127.0.0.1:$deadport" AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --profile legacy
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
if has "$out" '"Code":"NetworkError",.*(after 3 attempts)' && [ "$ms" -lt 1500 ]; then
    ok "retry_mode = legacy: botocore's DynamoDB delays (50 ms, 100 ms: ${ms} ms for 3 attempts)"
else notok "retry_mode = legacy" "$(why)" "${ms} ms"; fi
lst AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --endpoint-url "$F" --profile badretry
if [ $st -eq 1 ] && has "$err" "retry_mode (AWS_RETRY_MODE or the profile's) must be standard, legacy or adaptive"; then ok "an unknown retry_mode: refused"; else notok "an unknown retry_mode: refused" "$(why)"; fi
lst AWS_RETRY_MODE=adaptive AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --endpoint-url "$F" --profile badretry
if listed; then ok "AWS_RETRY_MODE wins over the profile's retry_mode"; else notok "AWS_RETRY_MODE wins" "$(why)"; fi
# ca_bundle in the profile: a TLS proxy (tests/remote/flaky.js) with a
# self-signed certificate in front of the fake DynamoDB.
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
       -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1; then
    mkfifo "$tmp/tls.in"
    FLAKY_TLS_CERT="$tmp/cert.pem" FLAKY_TLS_KEY="$tmp/key.pem" \
        node "$root/tests/remote/flaky.js" "${F##*:}" proxy <"$tmp/tls.in" >"$tmp/tls.port" 2>"$tmp/tls.err" &
    pids="$pids $!"
    exec 5>"$tmp/tls.in"
    i=0
    while [ $i -lt 100 ] && ! grep -q '^PORT ' "$tmp/tls.port"; do sleep 0.1; i=$((i + 1)); done
    tls=https://127.0.0.1:$(sed -n 's/^PORT //p' "$tmp/tls.port")
    printf '\n[profile cab]\nregion = eu-west-1\nca_bundle = %s\naws_access_key_id = AKENV\naws_secret_access_key = %s\n' "$tmp/cert.pem" "$ENV_SECRET" >>"$HOME/.aws/config"
    lst AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" "$DDBX" api --endpoint-url "$tls" --profile cab
    if listed; then ok "ca_bundle in the profile: HTTPS to a certificate it names"; else notok "ca_bundle in the profile" "$(why)"; fi
    lst AWS_ACCESS_KEY_ID=AKENV AWS_SECRET_ACCESS_KEY="$ENV_SECRET" AWS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt "$DDBX" api --endpoint-url "$tls" --profile cab
    if has "$out" '"Code":"NetworkError","Message":"the TLS certificate is not trusted'; then
        ok "AWS_CA_BUNDLE wins over the profile's ca_bundle"
    else notok "AWS_CA_BUNDLE wins over the profile's ca_bundle" "$(why)"; fi
    exec 5>&-
else
    notok "openssl could make a test certificate"
fi

# --- the explorer: identity on the status line, MFA asked on it -------------------------
cat >"$tmp/status.keys" <<EOF
:save-display $tmp/status.screen
q
EOF
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=200 LINES=10 DDBX_SCRIPT="$tmp/status.keys" \
    "$DDBX" --endpoint-url "$F" --profile r1 >"$out" 2>"$err" </dev/null; st=$?
if [ $st -eq 0 ] && grep -q "remote, read-only .* as arn:aws:sts::123456789012:assumed-role/first/ddbx-session-[0-9]*, profile r1" "$tmp/status.screen"; then
    ok "the explorer's status line: the assumed role's ARN and the profile"
else notok "the explorer's status line: the identity" "$(why)" "$(tail -n 2 "$tmp/status.screen" 2>/dev/null)"; fi
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=200 LINES=10 DDBX_SCRIPT="$tmp/status.keys" \
    "$DDBX" --endpoint-url "$F" --profile base >"$out" 2>"$err" </dev/null; st=$?
if [ $st -eq 0 ] && grep -q "as arn:aws:iam::111122223333:user/AKBASE, profile base" "$tmp/status.screen"; then
    ok "static keys: the status line has STS's answer (an STS endpoint is configured)"
else notok "static keys: STS's answer on the status line" "$(why)" "$(tail -n 2 "$tmp/status.screen" 2>/dev/null)"; fi
mark
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
env -u AWS_ENDPOINT_URL_STS LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=200 LINES=10 DDBX_SCRIPT="$tmp/status.keys" \
    "$DDBX" --endpoint-url "$F" --profile base >"$out" 2>"$err" </dev/null; st=$?
if [ $st -eq 0 ] && grep -q "as profile base, keys from .*/.aws/credentials \[base\]" "$tmp/status.screen" &&
   [ "$(since | grep -c 'GetCallerIdentity')" -eq 0 ]; then
    ok "a local endpoint without STS: the profile and where the keys came from (STS not asked)"
else notok "a local endpoint without STS: the profile and the source" "$(why)" "$(tail -n 2 "$tmp/status.screen" 2>/dev/null)"; fi

# MFA in the explorer: keys that expire within 5 minutes are fetched again
# before each request, so the role is assumed again and the code is asked
# for on the status line (the first one on the terminal, before the
# explorer starts). fake4 issues keys that last 2 minutes.
start_fake fake4 FAKE_EXPIRES_IN=120
F4=$url
rm -f "$HOME/.aws/cli/cache/"*.json
cat >"$tmp/mfa.keys" <<EOF
$MFA_CODE<Enter>
$MFA_CODE<Enter>
:save-display $tmp/mfa.screen
q
EOF
out_n=$((out_n + 1)); out="$tmp/out.$out_n"; err="$tmp/err.$out_n"
printf '%s\n' "$MFA_CODE" | env AWS_ENDPOINT_URL_STS="$F4" LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color COLUMNS=200 LINES=10 \
    DDBX_SCRIPT="$tmp/mfa.keys" script -qec "$DDBX --endpoint-url $F4 --profile mfa" /dev/null >"$out" 2>"$err"; st=$?
ar=$(grep -c 'Action=AssumeRole .*TokenCode=(given)' "$tmp/fake4.log")
if [ $st -eq 0 ] && has "$out" "Enter MFA code for arn:aws:iam::111122223333:mfa/alice" && [ "$ar" -eq 3 ] &&
   grep -q "^Fake  *PK S" "$tmp/mfa.screen" && [ "$(grep -c "DYNAMODB key=ASIAROLE" "$tmp/fake4.log")" -eq 2 ] &&
   grep -q "as arn:aws:sts::123456789012:assumed-role/mfa-admin/" "$tmp/mfa.screen"; then
    ok "the explorer: MFA asked on the terminal at start, then on the status line when the keys are refreshed ($ar AssumeRole calls)"
else notok "the explorer: MFA asked again when the keys are refreshed" "$(why)" "$(cat "$tmp/fake4.log" | tail -n 5)"; fi

# --- no secret anywhere --------------------------------------------------------------
leaks=$(cat "$tmp"/out.* "$tmp"/err.* "$tmp"/*.screen "$tmp"/*.log 2>/dev/null |
        grep -c -F -e "$BASE_SECRET" -e "$ENV_SECRET" -e "$WEB_TOKEN" -e "$SSO_TOKEN" -e "$SSO_OLD" \
                   -e "$SSO_REFRESH" -e "$SSO_CLIENT_SECRET" -e "$CONTAINER_AUTH" -e "SECRET1/" -e "TOKEN1/" \
                   -e "imdsSESSION" -e "ssoREFRESHEDaccess" -e "revokedTOKEN")
issued=$(cat "$tmp"/out.* "$tmp"/err.* "$tmp"/*.screen 2>/dev/null | grep -c -E '(role|web|sso|ecs|imds)(SECRET|TOKEN)[0-9]+/')
if [ "$leaks" -eq 0 ] && [ "$issued" -eq 0 ] && [ "$out_n" -gt 40 ]; then
    ok "no secret key, session token, web identity token, SSO token, refresh token, client secret or container token in any output ($out_n runs, the fakes' logs, the screens)"
else
    notok "no secret in any output" "$leaks + $issued lines leak"
fi
exit $rc
