-- The Hub's database, beside the server's (compose.yaml): run once, when the volume is new.
CREATE DATABASE latchkey_hub OWNER latchkey;
