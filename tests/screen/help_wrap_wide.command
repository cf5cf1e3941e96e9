Help: keys and commands  (q: back)
      e.g. :apply put
  :txn add put|update|delete|check|run|clear
                             Builder: collect actions, run them as one TransactWriteItems
      e.g. :txn run
  :save-cond NAME            Builder: save the condition under NAME in the database
      e.g. :save-cond follow-once
  :load-cond NAME            Builder: load a saved condition into the tree
      e.g. :load-cond follow-once
  :delete-cond NAME          Builder: delete a saved condition
      e.g. :delete-cond follow-once
  :conds                     Builder: list the saved conditions
  :create-index NAME PK[:S|N|B] [SK[:TYPE]] [--projection ALL|KEYS_ONLY|INCLUDE:a,b]
                             Create a GSI on the table shown and backfill it (UpdateTable; asks first); a
                             multi-attribute key joins its parts with + (a+b c:N+d)
      e.g. :create-index GSI2 followedAt
  :delete-index NAME         Delete a GSI of the table shown (UpdateTable; asks first)
      e.g. :delete-index GSI2
  :ttl [ATTR|off]            Show the table's TTL, or enable it on ATTR, or disable it (asks first)
      e.g. :ttl
  :entities [TABLE]          Entity types of the table shown (or TABLE), inferred from its items: Enter shows one's
                             items
      e.g. :entities
  :doctor [TABLE]            What hurts the design of the table shown (or TABLE), and what to do (as ddbx doctor)
      e.g. :doctor
  :what-if [TABLE]           A scratch copy of the table: :create-index and :delete-index there, every pattern's cost
                             before and after, the doctor's findings they bring
      e.g. :what-if
  :apply-index NAME          What-if view: create on the table itself the GSI NAME made on the copy (asks, naming how
                             many items it will hold; as ddbx evolve)
      e.g. :apply-index ByName
  :stage [on|off]            Stage edits instead of writing them, the builder's too (on by default for a remote table
                             opened with --write)
      e.g. :stage on
/create-index
