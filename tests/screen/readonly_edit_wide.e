SocialGraph  base table (PK, SK)  item 1 of 10 · partition 1 of 5, 799 B  [i: index]
  SK            city     followerCount  followingCount  name                                                                         [PROFILE items; C: columns]
▾ ACTOR#alice  3 items, 251 B
  PROFILE       Seoul    1              2               Alice
  SK            GSI1PK        GSI1SK       followedAt                                                                                            [TARGET# items]
  TARGET#bob    TARGET#bob    ACTOR#alice  2024-01-01T10:00:00Z
  TARGET#carol  TARGET#carol  ACTOR#alice  2024-01-03T10:00:00Z
▾ ACTOR#bob  2 items, 155 B
  SK            city     followerCount  followingCount  name                                                                                     [PROFILE items]
  PROFILE       Busan    2              1               Bob
  SK            GSI1PK        GSI1SK       followedAt                                                                                            [TARGET# items]
  TARGET#carol  TARGET#carol  ACTOR#bob    2024-01-04T10:00:00Z
▾ ACTOR#carol  1 item, 72 B
  SK            city     followerCount  followingCount  name                                                                                     [PROFILE items]
  PROFILE       Incheon  2              0               Carol
▾ ACTOR#dave  2 items, 154 B
  PROFILE       Daegu    0              1               Dave
  SK            GSI1PK        GSI1SK       followedAt                                                                                            [TARGET# items]
  TARGET#bob    TARGET#bob    ACTOR#dave   2024-01-02T10:00:00Z
▾ ACTOR#minji  2 items, 167 B
  SK            city     followerCount  followingCount  name                                                                                     [PROFILE items]
  PROFILE       서울     0              1               김민지
  SK            GSI1PK        GSI1SK       followedAt                                                                                            [TARGET# items]
  TARGET#alice  TARGET#alice  ACTOR#minji  2024-01-05T10:00:00Z















The database is open read-only (--read-only): nothing can be written
