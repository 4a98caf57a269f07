mod algorithm;
mod contacts;
mod ray;
