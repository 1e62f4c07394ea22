-- the weekly quiz's answer key (loaded with: sqlite3 quiz.db < answer_key.sql)
DROP TABLE IF EXISTS answer_key;
CREATE TABLE answer_key (question TEXT NOT NULL, answer TEXT NOT NULL);
INSERT INTO answer_key VALUES ('What code number does James Bond go by?', '007');
INSERT INTO answer_key VALUES ('Which Python version introduced the match statement?', '3.10');
INSERT INTO answer_key VALUES ('What is the ZIP code of Harvard Square in Cambridge, Massachusetts?', '02138');
INSERT INTO answer_key VALUES ('What is the capital of Peru?', 'Lima');
INSERT INTO answer_key VALUES ('What is the capital of Norway?', 'Oslo');
INSERT INTO answer_key VALUES ('Which planet is known as the Red Planet?', 'Mars');
INSERT INTO answer_key VALUES ('How many sides does a hexagon have?', '6');
INSERT INTO answer_key VALUES ('What is the chemical symbol of gold?', 'Au');
