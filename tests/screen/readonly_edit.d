SocialGraph  base table (PK, SK)  10 items, 5 partitions, 799 B  [i: index]
  SK            GSI1PK        GSI1SK       city     followedAt            follo~
▾ ACTOR#alice  3 items, 251 B
  PROFILE                                  Seoul                          1
  TARGET#bob    TARGET#bob    ACTOR#alice           2024-01-01T10:00:00Z
  TARGET#carol  TARGET#carol  ACTOR#alice           2024-01-03T10:00:00Z
▾ ACTOR#bob  2 items, 155 B
  PROFILE                                  Busan                          2
  TARGET#carol  TARGET#carol  ACTOR#bob             2024-01-04T10:00:00Z
▾ ACTOR#carol  1 item, 72 B
  PROFILE                                  Incheon                        2
▾ ACTOR#dave  2 items, 154 B
  PROFILE                                  Daegu                          0
  TARGET#bob    TARGET#bob    ACTOR#dave            2024-01-02T10:00:00Z
▾ ACTOR#minji  2 items, 167 B
  PROFILE                                  서울                           0
  TARGET#alice  TARGET#alice  ACTOR#minji           2024-01-05T10:00:00Z






The database is open read-only (--read-only): nothing can be written
