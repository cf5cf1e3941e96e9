Matches  query bar  Error: ValidationException: RANGE key attributes round must have equality conditions specified in t~
Index               TournamentRegion
Partition value     WINTER2024 | NA-EAST
Sort key condition   | UPPER
Filter              -
Names               -
Values              -
Will run: Query on TournamentRegion (one partition: tournamentId | region = WINTER2024 | NA-EAST)   [Enter: run]
100 items a page (:page-size N); more: G, :load N (matches), :load-all
Predicted: at most 0.5 RCU in 1 page (the partition, 330 B, eventually consistent)
Error: ValidationException: RANGE key attributes round must have equality conditions specified in the query because a c~






















ValidationException: RANGE key attributes round must have equality conditions specified in the query because a condition
 is present on key attribute bracket
