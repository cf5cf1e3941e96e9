SocialGraph  base table (PK, SK)  partition 1 of 2407 · 4820 items  [i: index]
  SK            avatar                            bio
▾ ACTOR#alice  4 items, 737 B
  PROFILE       B:iVBORw0KGgoAAAANSUhEUgAAAAEAA~  Backend engineer. 서울 ↔ Seat~
  SK            GSI1PK         GSI1SK       followedAt            type
  TARGET#bob    TARGET#bob     ACTOR#alice  2021-03-04T10:00:00Z  follow
  TARGET#carol  TARGET#carol   ACTOR#alice  2021-03-05T08:12:30Z  follow
  TARGET#star   TARGET#star#7  ACTOR#alice  2022-12-24T21:00:00Z  follow
▾ ACTOR#bob  2 items, 324 B
  SK            avatar                            bio
  PROFILE                                         Cyclist, occasional photograp~
  SK            GSI1PK         GSI1SK       followedAt            type
  TARGET#carol  TARGET#carol   ACTOR#bob    2021-05-09T16:20:00Z  follow
▾ ACTOR#carol  3 items, 417 B
  SK            avatar                            bio
  PROFILE                                         Product designer · Hà Nội
  SK            GSI1PK         GSI1SK       followedAt            type
  TARGET#alice  TARGET#alice   ACTOR#carol  2021-02-15T09:00:00Z  follow
  TARGET#하늘   TARGET#하늘    ACTOR#carol  2022-10-10T10:10:10Z  follow
▾ ACTOR#dave  3 items, 354 B
  SK            avatar                            bio
  PROFILE                                         ""
 goto  VALUE  Go to the partition with this partition key value
:go
