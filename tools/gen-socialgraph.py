#!/usr/bin/env python3
"""Writes assets/samples/SocialGraph.json, the follow-graph sample.

The hand-written part (a few people, their profiles and who follows whom)
is in this script; the celebrity's followers are generated, deterministic
(no randomness: the same script always writes the same bytes). The
follower/following counters on each PROFILE item are computed from the
edges, so they are consistent by construction.

Layout (adjacency list, one table):
  edge     PK=ACTOR#<src>  SK=TARGET#<dst>   GSI1PK=TARGET#<dst>  GSI1SK=ACTOR#<src>
  profile  PK=ACTOR#<id>   SK=PROFILE        (no GSI1 keys: absent from GSI1)
Edges to the celebrity "star" are written with GSI1PK=TARGET#star#<shard>
(shard = FNV-1a of the follower id mod SHARDS): a write-sharded hot key.

Usage: tools/gen-socialgraph.py > assets/samples/SocialGraph.json
"""
import json
import sys

FANS = 2400
SHARDS = 8
STAR = "star"

# id -> profile attributes (DynamoDB JSON), hand-written.
PEOPLE = {
    "alice": {
        "displayName": {"S": "Alice Kim"},
        "bio": {"S": "Backend engineer. 서울 ↔ Seattle. Writes about DynamoDB."},
        "joinedAt": {"S": "2019-04-02T09:15:00Z"},
        "verified": {"BOOL": True},
        "interests": {"SS": ["climbing", "databases", "커피"]},
        "avatar": {"B": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
        "pubKeys": {"BS": ["AAECAwQFBgcICQoLDA0ODw==", "3q2+7w=="]},
        "location": {"M": {"city": {"S": "Seoul"}, "country": {"S": "KR"},
                           "geo": {"M": {"lat": {"N": "37.5665"}, "lon": {"N": "126.978"}}}}},
        "links": {"L": [{"S": "https://alice.example.dev"},
                        {"M": {"site": {"S": "github"}, "handle": {"S": "alicekim"}}}]},
    },
    "bob": {
        "displayName": {"S": "Bob Martins"},
        "bio": {"S": "Cyclist, occasional photographer 📷"},
        "joinedAt": {"S": "2020-11-23T18:02:41Z"},
        "verified": {"BOOL": False},
        "interests": {"SS": ["cycling", "photography"]},
        "lastSeen": {"NULL": True},
        "location": {"M": {"city": {"S": "Lisboa"}, "country": {"S": "PT"}}},
    },
    "carol": {
        "displayName": {"S": "Carol Nguyễn"},
        "bio": {"S": "Product designer · Hà Nội"},
        "joinedAt": {"S": "2021-02-14T07:30:00Z"},
        "verified": {"BOOL": True},
        "luckyNumbers": {"NS": ["3", "7", "21", "1.5"]},
        "location": {"M": {"city": {"S": "Hà Nội"}, "country": {"S": "VN"}}},
    },
    "dave": {
        "displayName": {"S": "dave"},
        "bio": {"S": ""},
        "joinedAt": {"S": "2023-06-30T23:59:59Z"},
        "verified": {"BOOL": False},
        "settings": {"M": {"private": {"BOOL": False}, "theme": {"S": "dark"},
                           "mutedWords": {"L": []}}},
    },
    "하늘": {
        "displayName": {"S": "이하늘"},
        "bio": {"S": "사진 찍고 글 씁니다. 부산 사람."},
        "joinedAt": {"S": "2022-09-01T03:00:00Z"},
        "verified": {"BOOL": False},
        "interests": {"SS": ["사진", "여행", "문학"]},
        "location": {"M": {"city": {"S": "부산"}, "country": {"S": "KR"}}},
    },
    "minji": {
        "displayName": {"S": "김민지 (Minji)"},
        "bio": {"S": "Data scientist. ここにもいます。"},
        "joinedAt": {"S": "2024-01-08T11:45:12Z"},
        "verified": {"BOOL": True},
        "badges": {"L": [{"S": "early-adopter"}, {"N": "2024"}, {"BOOL": True}, {"NULL": True}]},
    },
    STAR: {
        "displayName": {"S": "별 ★ Star"},
        "bio": {"S": "Singer-songwriter. 공식 계정."},
        "joinedAt": {"S": "2018-01-01T00:00:00Z"},
        "verified": {"BOOL": True},
        "followerShards": {"N": str(SHARDS)},
        "lifetimeStreams": {"N": "12345678901234567890123456789012345678"},
        "location": {"M": {"city": {"S": "Seoul"}, "country": {"S": "KR"}}},
    },
}

# (follower, followee, followedAt), hand-written. bob is followed by
# alice and dave only (the article's example).
EDGES = [
    ("alice", "bob", "2021-03-04T10:00:00Z"),
    ("alice", "carol", "2021-03-05T08:12:30Z"),
    ("alice", STAR, "2022-12-24T21:00:00Z"),
    ("dave", "bob", "2023-07-01T12:00:00Z"),
    ("dave", "alice", "2023-07-01T12:00:05Z"),
    ("bob", "carol", "2021-05-09T16:20:00Z"),
    ("carol", "alice", "2021-02-15T09:00:00Z"),
    ("carol", "하늘", "2022-10-10T10:10:10Z"),
    ("하늘", "alice", "2022-09-02T04:00:00Z"),
    ("하늘", STAR, "2022-09-02T04:01:00Z"),
    ("하늘", "minji", "2024-01-09T20:30:00Z"),
    ("minji", "하늘", "2024-01-09T21:00:00Z"),
    ("minji", "carol", "2024-01-10T08:00:00Z"),
]


def fnv1a(s):
    h = 0x811C9DC5
    for byte in s.encode("utf-8"):
        h ^= byte
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def gsi1pk(dst, src):
    if dst == STAR:
        return "TARGET#%s#%d" % (STAR, fnv1a(src) % SHARDS)
    return "TARGET#" + dst


def main():
    edges = list(EDGES)
    fans = []
    for i in range(1, FANS + 1):
        fan = "fan%04d" % i
        fans.append(fan)
        # Spread deterministically over 2023, one minute apart-ish.
        day = 1 + (i * 7) % 28
        month = 1 + (i * 5) % 12
        edges.append((fan, STAR, "2023-%02d-%02dT%02d:%02d:%02dZ"
                      % (month, day, i % 24, (i * 13) % 60, (i * 29) % 60)))

    following = {}
    followers = {}
    for src, dst, _ in edges:
        following[src] = following.get(src, 0) + 1
        followers[dst] = followers.get(dst, 0) + 1

    items = []
    for pid, attrs in PEOPLE.items():
        item = {"PK": {"S": "ACTOR#" + pid}, "SK": {"S": "PROFILE"}, "type": {"S": "user"}}
        item.update(attrs)
        item["followerCount"] = {"N": str(followers.get(pid, 0))}
        item["followingCount"] = {"N": str(following.get(pid, 0))}
        items.append(item)
    for src, dst, when in edges:
        item = {"PK": {"S": "ACTOR#" + src}, "SK": {"S": "TARGET#" + dst},
                "type": {"S": "follow"},
                "GSI1PK": {"S": gsi1pk(dst, src)}, "GSI1SK": {"S": "ACTOR#" + src},
                "followedAt": {"S": when}}
        items.append(item)
    for fan in fans:
        items.append({"PK": {"S": "ACTOR#" + fan}, "SK": {"S": "PROFILE"}, "type": {"S": "user"},
                      "displayName": {"S": fan}, "followerCount": {"N": "0"},
                      "followingCount": {"N": str(following[fan])}})

    def attr(name, t):
        return {"AttributeName": name, "AttributeType": t}

    model = {
        "ModelName": "SocialGraph",
        "ModelMetadata": {
            "Author": "ddbx",
            "DateCreated": "Nov 29, 2026, 09:00 PM",
            "DateLastModified": "Nov 29, 2026, 09:00 PM",
            "Description": "Follow graph as an adjacency list: edge items PK=ACTOR#src SK=TARGET#dst, "
                           "profile items PK=ACTOR#id SK=PROFILE with counters, GSI1 inverts the edges "
                           "(followers). The celebrity 'star' has %d followers whose GSI1 partition is "
                           "write-sharded TARGET#star#0..%d. Generated by tools/gen-socialgraph.py."
                           % (followers[STAR], SHARDS - 1),
            "AWSService": "Amazon DynamoDB",
            "Version": "3.0",
        },
        "DataModel": [{
            "TableName": "SocialGraph",
            "KeyAttributes": {"PartitionKey": attr("PK", "S"), "SortKey": attr("SK", "S")},
            "NonKeyAttributes": [
                attr("GSI1PK", "S"), attr("GSI1SK", "S"), attr("type", "S"),
                attr("followedAt", "S"), attr("displayName", "S"), attr("bio", "S"),
                attr("joinedAt", "S"), attr("verified", "BOOL"), attr("interests", "SS"),
                attr("avatar", "B"), attr("pubKeys", "BS"), attr("luckyNumbers", "NS"),
                attr("location", "M"), attr("links", "L"), attr("badges", "L"),
                attr("settings", "M"), attr("lastSeen", "NULL"),
                attr("followerShards", "N"), attr("lifetimeStreams", "N"),
                attr("followerCount", "N"), attr("followingCount", "N"),
            ],
            "GlobalSecondaryIndexes": [{
                "IndexName": "GSI1",
                "KeyAttributes": {"PartitionKey": attr("GSI1PK", "S"),
                                  "SortKey": attr("GSI1SK", "S")},
                "Projection": {"ProjectionType": "ALL"},
            }],
            "TableData": "@ITEMS@",
            "DataAccess": {"MySql": {}},
            "BillingMode": "PAY_PER_REQUEST",
        }],
    }
    text = json.dumps(model, ensure_ascii=False, indent=2)
    rows = ",\n".join("        " + json.dumps(it, ensure_ascii=False, separators=(",", ":"))
                      for it in items)
    text = text.replace('"@ITEMS@"', "[\n" + rows + "\n      ]")
    sys.stdout.write(text + "\n")


if __name__ == "__main__":
    main()
