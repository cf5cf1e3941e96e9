Matches  query bar  Error: ValidationException: RANGE key attributes round must~
Index               TournamentRegion
Partition value     WINTER2024 | NA-EAST
Sort key condition   | UPPER
Filter              -
Names               -
Values              -
Will run: Query on TournamentRegion (one partition: tournamentId | region = WIN~
100 items a page (:page-size N); more: G, :load N (matches), :load-all
Predicted: at most 0.5 RCU in 1 page (the partition, 330 B, eventually consiste~
Error: ValidationException: RANGE key attributes round must have equality condi~











ValidationException: RANGE key attributes round must have equality conditions
specified in the query because a condition is present on key attribute bracket
