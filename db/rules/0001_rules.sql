-- The rule tables: one GS1 Barcode Syntax Dictionary release and the GS1 Web
-- Vocabulary link types, written by codepayload-import (db/rule_store_writer.cpp)
-- and loaded by the engine (db/rule_store_reader.cpp). A database holds exactly
-- one release; an import builds a new file and swaps it in.
--
-- Ordinals (position, sequence_no, rule_no, alternative_no, ...) count from 1
-- and keep the dictionary's order, so reading back gives what was written.

-- The release and the two source files it was built from.
CREATE TABLE release (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL CHECK (name GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
  source_file TEXT NOT NULL CHECK (length(source_file) > 0),
  source_sha256 TEXT NOT NULL
    CHECK (length(source_sha256) = 64 AND source_sha256 NOT GLOB '*[^0-9a-f]*'),
  link_types_file TEXT NOT NULL CHECK (length(link_types_file) > 0),
  link_types_sha256 TEXT NOT NULL
    CHECK (length(link_types_sha256) = 64 AND link_types_sha256 NOT GLOB '*[^0-9a-f]*'),
  imported_at TEXT NOT NULL
    CHECK (imported_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')
) STRICT;

-- One row per AI (ranges such as 3100-3105 expanded). Flags: '*' is
-- fixed_length, '?' is dl_data_attribute. format_spec is the specification
-- without linters as users see it in error args ("N13 [X..17]").
CREATE TABLE application_identifier (
  ai TEXT NOT NULL PRIMARY KEY CHECK (length(ai) BETWEEN 2 AND 4 AND ai NOT GLOB '*[^0-9]*'),
  title TEXT NOT NULL,
  fixed_length INTEGER NOT NULL CHECK (fixed_length IN (0, 1)),
  dl_data_attribute INTEGER NOT NULL CHECK (dl_data_attribute IN (0, 1)),
  format_spec TEXT NOT NULL CHECK (length(format_spec) > 0)
) STRICT, WITHOUT ROWID;

-- Every linter the release names and where it was found at import time.
CREATE TABLE linter (
  name TEXT NOT NULL PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^a-z0-9_]*'),
  implementation TEXT NOT NULL CHECK (implementation IN ('builtin', 'lua'))
) STRICT, WITHOUT ROWID;

-- The components of an AI's format specification ("N13,csum,gcppos1 [X..17]").
CREATE TABLE format_component (
  ai TEXT NOT NULL REFERENCES application_identifier (ai),
  position INTEGER NOT NULL CHECK (position >= 1),
  charset TEXT NOT NULL CHECK (charset IN ('N', 'X', 'Y', 'Z')),
  min_length INTEGER NOT NULL CHECK (min_length BETWEEN 1 AND 99),
  max_length INTEGER NOT NULL CHECK (max_length BETWEEN min_length AND 99),
  optional INTEGER NOT NULL CHECK (optional IN (0, 1)),
  PRIMARY KEY (ai, position)
) STRICT, WITHOUT ROWID;

-- The linters of one component, in the order the dictionary lists them.
CREATE TABLE component_linter (
  ai TEXT NOT NULL,
  component_position INTEGER NOT NULL,
  position INTEGER NOT NULL CHECK (position >= 1),
  linter TEXT NOT NULL REFERENCES linter (name),
  PRIMARY KEY (ai, component_position, position),
  FOREIGN KEY (ai, component_position) REFERENCES format_component (ai, position)
) STRICT, WITHOUT ROWID;

-- GS1 Digital Link primary keys (the "dlpkey" attribute) ...
CREATE TABLE dl_primary_key (
  ai TEXT NOT NULL PRIMARY KEY REFERENCES application_identifier (ai)
) STRICT, WITHOUT ROWID;

-- ... and their alternative ordered qualifier sequences, derived from
-- "dlpkey=22,10,21|235": sequence 1 = 22,10,21; sequence 2 = 235.
CREATE TABLE dl_qualifier (
  primary_key TEXT NOT NULL REFERENCES dl_primary_key (ai),
  sequence_no INTEGER NOT NULL CHECK (sequence_no >= 1),
  position INTEGER NOT NULL CHECK (position >= 1),
  qualifier_ai TEXT NOT NULL REFERENCES application_identifier (ai),
  PRIMARY KEY (primary_key, sequence_no, position),
  UNIQUE (primary_key, sequence_no, qualifier_ai),
  CHECK (qualifier_ai <> primary_key)
) STRICT, WITHOUT ROWID;

-- "req=" attributes: rule_no numbers the attribute, alternative_no the
-- ','-separated alternatives, member_position the '+'-joined members.
-- "req=01+21,02 req=10" is (1,1,1,'01') (1,1,2,'21') (1,2,1,'02') (2,1,1,'10').
-- Patterns are AIs or AI patterns with 'n' for any digit ("31nn").
CREATE TABLE ai_requires (
  ai TEXT NOT NULL REFERENCES application_identifier (ai),
  rule_no INTEGER NOT NULL CHECK (rule_no >= 1),
  alternative_no INTEGER NOT NULL CHECK (alternative_no >= 1),
  member_position INTEGER NOT NULL CHECK (member_position >= 1),
  pattern TEXT NOT NULL
    CHECK (length(pattern) BETWEEN 2 AND 4 AND pattern GLOB '[0-9]*' AND pattern NOT GLOB '*[^0-9n]*'),
  PRIMARY KEY (ai, rule_no, alternative_no, member_position)
) STRICT, WITHOUT ROWID;

-- "ex=" attributes, flattened in the order listed.
CREATE TABLE ai_excludes (
  ai TEXT NOT NULL REFERENCES application_identifier (ai),
  position INTEGER NOT NULL CHECK (position >= 1),
  pattern TEXT NOT NULL
    CHECK (length(pattern) BETWEEN 2 AND 4 AND pattern GLOB '[0-9]*' AND pattern NOT GLOB '*[^0-9n]*'),
  PRIMARY KEY (ai, position),
  UNIQUE (ai, pattern)
) STRICT, WITHOUT ROWID;

-- GS1 Web Vocabulary link types, in the order of the source file. selectable
-- is 0 exactly for the types restricted to "resolver".
CREATE TABLE link_type (
  id TEXT NOT NULL PRIMARY KEY CHECK (length(id) > 0),
  position INTEGER NOT NULL UNIQUE CHECK (position >= 1),
  title TEXT NOT NULL,
  description TEXT NOT NULL,
  uri TEXT NOT NULL CHECK (length(uri) > 0),
  status TEXT NOT NULL CHECK (length(status) > 0),
  deprecated INTEGER NOT NULL CHECK (deprecated IN (0, 1)),
  selectable INTEGER NOT NULL CHECK (selectable IN (0, 1))
) STRICT, WITHOUT ROWID;

CREATE TABLE link_type_restriction (
  link_type TEXT NOT NULL REFERENCES link_type (id),
  position INTEGER NOT NULL CHECK (position >= 1),
  restriction TEXT NOT NULL CHECK (length(restriction) > 0),
  PRIMARY KEY (link_type, position),
  UNIQUE (link_type, restriction)
) STRICT, WITHOUT ROWID;
