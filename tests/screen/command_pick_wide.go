SocialGraph  base table (PK, SK)  4820 items, 2407 partitions, 438.9 KB  [i: index]
  SK            GSI1PK         GSI1SK         avatar                            bio                               displ~
▾ ACTOR#alice  4 items, 737 B
  PROFILE                                     B:iVBORw0KGgoAAAANSUhEUgAAAAEAA~  Backend engineer. 서울 ↔ Seattl~  Alice~
  TARGET#bob    TARGET#bob     ACTOR#alice
  TARGET#carol  TARGET#carol   ACTOR#alice
  TARGET#star   TARGET#star#7  ACTOR#alice
▾ ACTOR#bob  2 items, 324 B
  PROFILE                                                                       Cyclist, occasional photographe~  Bob M~
  TARGET#carol  TARGET#carol   ACTOR#bob
▾ ACTOR#carol  3 items, 417 B
  PROFILE                                                                       Product designer · Hà Nội         Carol~
  TARGET#alice  TARGET#alice   ACTOR#carol
  TARGET#하늘   TARGET#하늘    ACTOR#carol
▾ ACTOR#dave  3 items, 354 B
  PROFILE                                                                       ""                                dave
  TARGET#alice  TARGET#alice   ACTOR#dave
  TARGET#bob    TARGET#bob     ACTOR#dave
▾ ACTOR#fan0001  2 items, 186 B
  PROFILE                                                                                                         fan00~
  TARGET#star   TARGET#star#5  ACTOR#fan0001
▾ ACTOR#fan0002  2 items, 186 B
  PROFILE                                                                                                         fan00~
  TARGET#star   TARGET#star#4  ACTOR#fan0002
▾ ACTOR#fan0003  2 items, 186 B
  PROFILE                                                                                                         fan00~
  TARGET#star   TARGET#star#7  ACTOR#fan0003
▾ ACTOR#fan0004  2 items, 186 B
  PROFILE                                                                                                         fan00~
  TARGET#star   TARGET#star#6  ACTOR#fan0004
▾ ACTOR#fan0005  2 items, 186 B
  PROFILE                                                                                                         fan00~
  TARGET#star   TARGET#star#1  ACTOR#fan0005
 goto  VALUE  Go to the partition with this partition key value
:go
