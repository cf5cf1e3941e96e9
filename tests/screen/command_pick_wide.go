SocialGraph  base table (PK, SK)  partition 1 of 2407 · 4820 items, 438.9 KB  [i: index]
  SK            avatar                            bio                               displayName   followerCount  follow~
▾ ACTOR#alice  4 items, 737 B
  PROFILE       B:iVBORw0KGgoAAAANSUhEUgAAAAEAA~  Backend engineer. 서울 ↔ Seattl~  Alice Kim     3              3
  SK            GSI1PK         GSI1SK         followedAt            type                                  [follow items]
  TARGET#bob    TARGET#bob     ACTOR#alice    2021-03-04T10:00:00Z  follow
  TARGET#carol  TARGET#carol   ACTOR#alice    2021-03-05T08:12:30Z  follow
  TARGET#star   TARGET#star#7  ACTOR#alice    2022-12-24T21:00:00Z  follow
▾ ACTOR#bob  2 items, 324 B
  SK            avatar                            bio                               displayName   followerCount  follow~
  PROFILE                                         Cyclist, occasional photographe~  Bob Martins   2              1
  SK            GSI1PK         GSI1SK         followedAt            type                                  [follow items]
  TARGET#carol  TARGET#carol   ACTOR#bob      2021-05-09T16:20:00Z  follow
▾ ACTOR#carol  3 items, 417 B
  SK            avatar                            bio                               displayName   followerCount  follow~
  PROFILE                                         Product designer · Hà Nội         Carol Nguyễn  3              2
  SK            GSI1PK         GSI1SK         followedAt            type                                  [follow items]
  TARGET#alice  TARGET#alice   ACTOR#carol    2021-02-15T09:00:00Z  follow
  TARGET#하늘   TARGET#하늘    ACTOR#carol    2022-10-10T10:10:10Z  follow
▾ ACTOR#dave  3 items, 354 B
  SK            avatar                            bio                               displayName   followerCount  follow~
  PROFILE                                         ""                                dave          0              2
  SK            GSI1PK         GSI1SK         followedAt            type                                  [follow items]
  TARGET#alice  TARGET#alice   ACTOR#dave     2023-07-01T12:00:05Z  follow
  TARGET#bob    TARGET#bob     ACTOR#dave     2023-07-01T12:00:00Z  follow
▾ ACTOR#fan0001  2 items, 186 B
  SK            avatar                            bio                               displayName   followerCount  follow~
  PROFILE                                                                           fan0001       0              1
  SK            GSI1PK         GSI1SK         followedAt            type                                  [follow items]
  TARGET#star   TARGET#star#5  ACTOR#fan0001  2023-06-08T01:13:29Z  follow
▾ ACTOR#fan0002  2 items, 186 B
  SK            avatar                            bio                               displayName   followerCount  follow~
  PROFILE                                                                           fan0002       0              1
 goto  VALUE  Go to the partition with this partition key value
:go
