SocialGraph  item PK=ACTOR#carol SK=PROFILE  211 bytes, read 1 RCU, write 1 WCU
  PK                    S   ACTOR#carol
  SK                    S   PROFILE
  bio                   S   Product designer · Hà Nội
  displayName           S   Carol Nguyễn
  followerCount         N   4
  followingCount        N   2
  joinedAt              S   2021-02-14T07:30:00Z
  location              M   (2)
    city                S   Hà Nội
    country             S   VN
  luckyNumbers          NS  (4)
    -                   N   1.5
    -                   N   3
    -                   N   7
    -                   N   21
  type                  S   user
  verified              BOOL  true

DynamoDB JSON
  {
    "PK": {"S":"ACTOR#carol"},
    "SK": {"S":"PROFILE"},

