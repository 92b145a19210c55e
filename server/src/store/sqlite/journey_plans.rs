//! Clock-triggered journey entries in SQLite (the statements shared with PostgreSQL).

use async_trait::async_trait;
use rusqlite::params;

use super::{SqliteStore, numbered};
use crate::{
    Error,
    store::{
        AccountId,
        journey_plans::{
            ENTER_PLANNED, JourneyPlanStore, MARK, Plan, SEE, SEEN, TIMED, TimedJourney, UNSEE, dated_sql, read_timed,
            two_dates,
        },
        segment_sql::Dialect,
        time,
    },
};

#[async_trait]
impl JourneyPlanStore for SqliteStore {
    async fn timed_journeys(&self) -> Result<Vec<TimedJourney>, Error> {
        self.db
            .read(|db| {
                let mut statement = db.prepare_cached(&numbered(TIMED))?;
                let rows = statement.query_map([], |row| read_timed(row))?;
                rows.map(|row| row?).collect()
            })
            .await
    }

    async fn dated_numbers(
        &self,
        account: AccountId,
        field: String,
        dates: Vec<String>,
        yearly: bool,
    ) -> Result<Vec<i64>, Error> {
        let (first, second) = two_dates(&dates);
        self.db
            .read(move |db| {
                let mut statement = db.prepare(&dated_sql(&field, yearly, Dialect::Sqlite))?;
                let rows = statement.query_map(params![account, first, second], |row| row.get(0))?;
                Ok(rows.collect::<Result<Vec<i64>, _>>()?)
            })
            .await
    }

    async fn enter_planned(&self, plan: Plan) -> Result<bool, Error> {
        self.db
            .write(move |db| {
                let (was, mark) = (plan.was.stored(), plan.mark.stored());
                if db.prepare_cached(&numbered(MARK))?.execute(params![plan.journey, was, mark])? == 0 {
                    return Ok(false);
                }
                let (ever, since) = plan.keep_out.columns();
                let mut statement = db.prepare_cached(&numbered(ENTER_PLANNED))?;
                for (number, at) in &plan.entries {
                    let at = time::store(*at);
                    statement.execute(params![plan.journey, plan.version, plan.account, number, at, ever, since])?;
                }
                let (seen, gone) = &plan.members;
                let mut see = db.prepare_cached(&numbered(SEE))?;
                for number in seen {
                    see.execute(params![plan.journey, number])?;
                }
                let mut unsee = db.prepare_cached(&numbered(UNSEE))?;
                for number in gone {
                    unsee.execute(params![plan.journey, number])?;
                }
                Ok(true)
            })
            .await
    }

    async fn segment_seen(&self, journey: i64) -> Result<Vec<i64>, Error> {
        self.db
            .read(move |db| {
                let mut statement = db.prepare_cached(&numbered(SEEN))?;
                let rows = statement.query_map([journey], |row| row.get(0))?;
                Ok(rows.collect::<Result<Vec<i64>, _>>()?)
            })
            .await
    }
}
